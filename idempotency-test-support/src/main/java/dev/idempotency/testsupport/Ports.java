package dev.idempotency.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** Picks free loopback ports for {@code redis-server} processes. */
final class Ports {

    /** Redis Cluster listens on {@code port + 10000} for its node-to-node bus. */
    static final int CLUSTER_BUS_OFFSET = 10_000;

    // Below Linux's ephemeral range (32768+), so the kernel does not give these ports to outgoing
    // connections while a server is down for a restart; far away from the machine's own 6379.
    private static final int LOWEST = 20_000;
    private static final int HIGHEST = 32_000;
    private static final int ATTEMPTS = 500;

    // A port is handed out once per JVM: a killed server keeps its port for restart().
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private Ports() {}

    /** A free port; with {@code clusterBus}, {@code port + 10000} is free as well (and below 55000). */
    static int allocate(boolean clusterBus) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST);
            if (clusterBus && !isFree(port + CLUSTER_BUS_OFFSET)) {
                continue;
            }
            if (isFree(port) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException(
                "Found no free port on 127.0.0.1 in " + LOWEST + ".." + HIGHEST + " after " + ATTEMPTS + " tries");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

package dev.idempotency.sample.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Asks a Redis server for {@code PONG} over a plain socket, so readiness needs no client library. */
final class Ping {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
    private static final int SOCKET_TIMEOUT_MILLIS = 500;

    private Ping() {}

    /** Returns once the server answers PING; throws when it exits first or stays silent for 10 seconds. */
    static void awaitReady(String host, int port, BooleanSupplier alive) throws IOException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!alive.getAsBoolean()) {
                throw new IOException("Redis on " + host + ":" + port + " exited while starting");
            }
            if (answers(host, port)) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while waiting for Redis on " + host + ":" + port, ex);
            }
        }
        throw new IOException("Redis on " + host + ":" + port + " did not answer PING within " + READY_TIMEOUT);
    }

    /** Whether a Redis server on that address answers PING right now. */
    static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), SOCKET_TIMEOUT_MILLIS);
            socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            BufferedReader reader =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            return "+PONG".equals(reader.readLine());
        } catch (IOException ex) {
            return false;
        }
    }
}

package dev.idempotency.sample.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} process for tests, where Docker (and so Testcontainers) is not at hand: started on a free
 * loopback port without persistence, and stopped by {@link #close()}. It needs {@code redis-server} on the
 * {@code PATH} (e.g. {@code apt-get install redis-server}).
 */
// tag::redis-process[]
final class RedisServerProcess implements AutoCloseable {

    private final Process process;
    private final int port;

    private RedisServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static RedisServerProcess start() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Process process = new ProcessBuilder(
                        "redis-server",
                        "--port",
                        String.valueOf(port),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        RedisServerProcess server = new RedisServerProcess(process, port);
        server.awaitAccepting(Duration.ofSeconds(10));
        return server;
    }

    int port() {
        return port;
    }

    /** Waits, at most {@code timeout}, until the server accepts connections. */
    private void awaitAccepting(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException notYet) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    close();
                    throw new IOException("redis-server did not start on port " + port, notYet);
                }
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
// end::redis-process[]

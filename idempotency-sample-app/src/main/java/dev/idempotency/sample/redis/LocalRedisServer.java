package dev.idempotency.sample.redis;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * A throwaway Redis server on {@code 127.0.0.1} and a free port, without persistence: {@code redis-server} from the
 * {@code PATH} when there is one (usually a newer Redis), else the Redis 6.2 binary bundled in embedded-redis, so a
 * machine with only a JDK can run the sample. {@link #close()} stops it and may be called any number of times.
 */
public final class LocalRedisServer implements AutoCloseable {

    static final String HOST = "127.0.0.1";

    // A port picked as free can be taken before Redis binds it; a few tries make that race harmless.
    private static final int ATTEMPTS = 3;

    private final int port;
    private final String binary;
    private final BooleanSupplier alive;
    private final Runnable stop;
    private boolean closed;

    private LocalRedisServer(int port, String binary, BooleanSupplier alive, Runnable stop) {
        this.port = port;
        this.binary = binary;
        this.alive = alive;
        this.stop = stop;
    }

    /** Starts a server with {@code redis-server} from the {@code PATH}, or the embedded binary when there is none. */
    public static LocalRedisServer start() {
        Optional<Path> onPath = onPath("redis-server");
        return onPath.isPresent() ? startProcess(onPath.get()) : startEmbedded();
    }

    /** Starts {@code executable} (a {@code redis-server}) as a child process. */
    public static LocalRedisServer startProcess(Path executable) {
        return withFreePort(port -> RedisProcess.start(executable, HOST, port));
    }

    /** Starts the binary bundled in embedded-redis, whatever the {@code PATH} holds. */
    public static LocalRedisServer startEmbedded() {
        return withFreePort(port -> EmbeddedRedis.start(HOST, port));
    }

    /** Always {@code 127.0.0.1}: the server is never reachable from another machine. */
    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    /** Which program runs the server, for the log: {@code redis-server from PATH (/usr/bin/redis-server)} or so. */
    public String binary() {
        return binary;
    }

    public boolean isRunning() {
        return alive.getAsBoolean();
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            stop.run();
        }
    }

    @Override
    public String toString() {
        return "Redis at " + host() + ":" + port + " (" + binary + ")";
    }

    /** How one kind of binary is started on a given port; throws when it did not come up. */
    interface Starter {
        LocalRedisServer start(int port) throws IOException;
    }

    static LocalRedisServer of(int port, String binary, BooleanSupplier alive, Runnable stop) {
        return new LocalRedisServer(port, binary, alive, stop);
    }

    private static LocalRedisServer withFreePort(Starter starter) {
        IOException last = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                return starter.start(freePort());
            } catch (IOException ex) {
                last = ex;
            }
        }
        throw new UncheckedIOException("Could not start a local Redis after " + ATTEMPTS + " attempts", last);
    }

    /** An ephemeral port from the kernel: never 6379, so a Redis the machine already runs is left alone. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        }
    }

    static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Stream.of(path.split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst();
    }
}

package dev.idempotency.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntFunction;

/** The Redis 6.2 binary bundled in embedded-redis; it can be stopped and restarted but not signalled. */
final class EmbeddedBackend implements ServerBackend {

    private final redis.embedded.RedisServer server;
    private final int port;
    private final Path dir;

    private EmbeddedBackend(redis.embedded.RedisServer server, int port, Path dir) {
        this.server = server;
        this.port = port;
        this.dir = dir;
    }

    static EmbeddedBackend start() {
        return start(port -> List.of(), false);
    }

    /**
     * Starts the bundled binary with {@code settings} (config lines such as {@code cluster-enabled yes}) for its port.
     *
     * @param clusterBus whether the port's cluster bus port must be free too
     */
    static EmbeddedBackend start(IntFunction<List<String>> settings, boolean clusterBus) {
        int port = Ports.allocate(clusterBus);
        try {
            Path dir = ChildProcesses.createTempDirectory("redis-harness-embedded-" + port + "-");
            redis.embedded.core.RedisServerBuilder builder = redis.embedded.RedisServer.newRedisServer()
                    .port(port)
                    .bind(RedisProcess.HOST)
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .setting("daemonize no")
                    .setting("dir " + dir);
            settings.apply(port).forEach(builder::setting);
            redis.embedded.RedisServer server = builder.build();
            server.start();
            return new EmbeddedBackend(server, port, dir);
        } catch (IOException e) {
            throw new UncheckedIOException("embedded-redis could not start a server on port " + port, e);
        }
    }

    @Override
    public RedisProvider provider() {
        return RedisProvider.EMBEDDED;
    }

    @Override
    public String host() {
        return RedisProcess.HOST;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void restart() {
        try {
            server.stop();
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("embedded-redis could not restart on port " + port, e);
        }
    }

    @Override
    public void stop() {
        try {
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException("embedded-redis could not stop on port " + port, e);
        }
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (IOException | RuntimeException e) {
            // Closing must not throw; embedded-redis registers its own shutdown hook as a backstop.
        } finally {
            ChildProcesses.deleteRecursively(dir);
        }
    }
}

package dev.idempotency.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

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
        int port = Ports.allocate(false);
        try {
            Path dir = ChildProcesses.createTempDirectory("redis-harness-embedded-" + port + "-");
            redis.embedded.RedisServer server = redis.embedded.RedisServer.newRedisServer()
                    .port(port)
                    .bind(RedisProcess.HOST)
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .setting("daemonize no")
                    .setting("dir " + dir)
                    .build();
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

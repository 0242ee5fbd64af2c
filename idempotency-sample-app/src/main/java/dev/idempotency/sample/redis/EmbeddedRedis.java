package dev.idempotency.sample.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import redis.embedded.RedisServer;

/** Runs the Redis 6.2 binary that embedded-redis bundles for the current OS and architecture. */
final class EmbeddedRedis {

    private EmbeddedRedis() {}

    static LocalRedisServer start(String host, int port) throws IOException {
        Path dir = Files.createTempDirectory("sample-redis-embedded-" + port + "-");
        RedisServer server = RedisServer.newRedisServer()
                .port(port)
                .bind(host)
                .setting("save \"\"")
                .setting("appendonly no")
                .setting("daemonize no")
                .setting("dir " + dir)
                .build();
        Runnable stop = () -> {
            try {
                server.stop();
            } catch (IOException | RuntimeException ex) {
                // Stopping runs at shutdown, where throwing helps nobody; embedded-redis has its own hook as backstop.
            } finally {
                Directories.deleteRecursively(dir);
            }
        };
        try {
            // start() returns once the server logged that it is ready, or throws when it exited.
            server.start();
            Ping.awaitReady(host, port, server::isActive);
        } catch (IOException | RuntimeException ex) {
            stop.run();
            throw new IOException("embedded-redis did not start on port " + port + ": " + ex.getMessage(), ex);
        }
        return LocalRedisServer.of(port, "embedded-redis binary (Redis 6.2)", server::isActive, stop);
    }
}

package dev.idempotency.it;

import dev.idempotency.testsupport.RedisServer;
import org.springframework.test.context.DynamicPropertyRegistry;

/** One real Redis server for the full-stack tests of this JVM (the harness stops it at exit). */
public final class TestRedis {

    public static final RedisServer SERVER = RedisServer.start();

    private TestRedis() {}

    public static void register(DynamicPropertyRegistry registry, RedisServer server) {
        registry.add("spring.data.redis.host", server::host);
        registry.add("spring.data.redis.port", server::port);
    }

    /** Data commands the server has run so far: not counting connection handshakes and the INFO that reads them. */
    public static long commandsRun(RedisServer server) {
        return server.commandStats().entrySet().stream()
                .filter(entry -> !java.util.Set.of("info", "hello", "ping").contains(entry.getKey())
                        && !entry.getKey().startsWith("client|"))
                .mapToLong(java.util.Map.Entry::getValue)
                .sum();
    }
}

package dev.idempotency.sample.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Both ways of starting a local Redis really serve on loopback, and stop when closed. */
class LocalRedisServerTests {

    @Test
    void startPrefersRedisServerFromThePath() {
        try (LocalRedisServer server = LocalRedisServer.start()) {
            assertServes(server);
            String expected =
                    LocalRedisServer.onPath("redis-server").isPresent() ? "redis-server from PATH" : "embedded";
            assertThat(server.binary()).startsWith(expected);
        }
    }

    @Test
    void embeddedBinaryServesWithoutRedisInstalled() {
        LocalRedisServer server = LocalRedisServer.startEmbedded();
        try {
            assertServes(server);
            assertThat(server.binary()).startsWith("embedded-redis");
        } finally {
            server.close();
        }
        assertStopped(server);
    }

    @Test
    void closeStopsTheServerAndIsSafeToRepeat() {
        LocalRedisServer server = LocalRedisServer.start();
        assertServes(server);
        server.close();
        assertStopped(server);
        server.close();
        assertStopped(server);
    }

    private static void assertServes(LocalRedisServer server) {
        assertThat(server.isRunning()).isTrue();
        assertThat(server.host()).isEqualTo("127.0.0.1");
        assertThat(server.port()).isNotEqualTo(6379);
        assertThat(Ping.answers(server.host(), server.port())).isTrue();
    }

    private static void assertStopped(LocalRedisServer server) {
        assertThat(server.isRunning()).isFalse();
        assertThat(Ping.answers(server.host(), server.port())).isFalse();
    }
}

package dev.idempotency.sample.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.sample.SampleApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** The local Redis lives exactly as long as the application context. */
class LocalRedisLifecycleTests {

    @Test
    void closingTheContextStopsTheLocalRedis() {
        LocalRedisServer server;
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
                .properties("server.port=0")
                .run()) {
            server = context.getBean(LocalRedis.class).server().orElseThrow();
            assertThat(Ping.answers(server.host(), server.port())).isTrue();
            assertThat(context.getEnvironment().getProperty("spring.data.redis.port", Integer.class))
                    .isEqualTo(server.port());
        }
        assertThat(server.isRunning()).isFalse();
        assertThat(Ping.answers(server.host(), server.port())).isFalse();
    }

    @Test
    void configuredUrlMeansNoLocalRedis() {
        // Nothing listens on this port: the context only has to start, and Lettuce connects lazily.
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
                .properties("server.port=0", "spring.data.redis.url=redis://127.0.0.1:1")
                .run()) {
            assertThat(context.getBean(LocalRedis.class).server()).isEmpty();
        }
    }
}

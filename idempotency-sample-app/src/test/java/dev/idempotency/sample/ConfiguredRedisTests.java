package dev.idempotency.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.sample.redis.LocalRedis;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.testsupport.TestHttp;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** With {@code spring.data.redis.host/port} set, the app uses that Redis and starts none of its own. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConfiguredRedisTests {

    // The harness stops the server when the JVM exits.
    static final RedisServer REDIS = RedisServer.start();

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", REDIS::host);
        registry.add("spring.data.redis.port", REDIS::port);
    }

    @LocalServerPort
    int port;

    @Autowired
    LocalRedis localRedis;

    @Autowired
    LettuceConnectionFactory connectionFactory;

    @Autowired
    ConfigurableEnvironment environment;

    @Test
    void noLocalRedisIsStarted() {
        assertThat(localRedis.server()).isEmpty();
        assertThat(environment.getPropertySources().contains(LocalRedis.PROPERTY_SOURCE))
                .isFalse();
        assertThat(connectionFactory.getHostName()).isEqualTo(REDIS.host());
        assertThat(connectionFactory.getPort()).isEqualTo(REDIS.port());
    }

    @Test
    void ordersAreProtectedInTheConfiguredRedis() {
        StringRedisTemplate harness = new StringRedisTemplate(REDIS.newConnectionFactory());
        harness.afterPropertiesSet();
        String key = UUID.randomUUID().toString();
        TestHttp http = new TestHttp(port);
        String order = "{\"item\":\"Tea\",\"quantity\":1}";
        assertThat(http.post("/api/orders", order, "Idempotency-Key", key).statusCode())
                .isEqualTo(201);
        assertThat(harness.keys("idempotency:*")).isNotEmpty();
        assertThat(http.post("/api/orders", order, "Idempotency-Key", key)
                        .headers()
                        .firstValue("Idempotent-Replayed"))
                .hasValue("true");
    }
}

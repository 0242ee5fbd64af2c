package dev.idempotency.sample.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The testing guide's second example: the application on a real Redis, a {@code redis-server} process the test starts
 * ({@link RedisServerProcess}), the store as in production. With Docker, a Testcontainers Redis with
 * {@code @ServiceConnection} does the same (shown in the guide).
 */
// tag::redis[]
@SpringBootTest
@AutoConfigureMockMvc
class RedisApplicationTests {

    private static RedisServerProcess redis;

    @BeforeAll
    static void startRedis() throws IOException {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @DynamicPropertySource
    static void redisProperties(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", redis::port);
    }

    @Autowired
    MockMvc mvc;

    @Autowired
    StringRedisTemplate redisTemplate;

    @Test
    void theRecordLivesInRedisAndARetryIsReplayed() throws Exception {
        String key = UUID.randomUUID().toString();
        String order = "{\"item\":\"Espresso beans\",\"quantity\":2}";
        mvc.perform(post("/api/orders")
                        .header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(order))
                .andExpect(status().isCreated());
        assertThat(redisTemplate.keys("idempotency:*")).isNotEmpty();
        mvc.perform(post("/api/orders")
                        .header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(order))
                .andExpect(status().isCreated())
                .andExpect(header().string("Idempotent-Replayed", "true"));
    }
}
// end::redis[]

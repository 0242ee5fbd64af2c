package dev.idempotency.it;

import static dev.idempotency.it.HttpContractTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.testsupport.TestHttp;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Redis stopped: 503 with Retry-After and the method not run (or run unprotected where a policy says proceed). */
@SpringBootTest(
        classes = ShopApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.data.redis.timeout=500ms")
class StoreFailureTests {

    private static final RedisServer REDIS = RedisServer.start();

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        TestRedis.register(registry, REDIS);
    }

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    @LocalServerPort
    int port;

    @Autowired
    ShopController shop;

    @Autowired
    MeterRegistry meters;

    private double outcomes(String operation, String outcome) {
        Counter counter = meters.find("idempotency.requests")
                .tags("operation", operation, "outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void redisDownGives503WithoutRunningTheMethodThenRecovers() {
        TestHttp http = new TestHttp(port);
        String order = "{\"item\":\"book\",\"quantity\":1}";
        assertThat(http.post(
                                "/orders",
                                order,
                                "Idempotency-Key",
                                UUID.randomUUID().toString())
                        .statusCode())
                .isEqualTo(201);
        int runs = shop.runs("orders");
        int lenientRuns = shop.runs("lenient");

        double unavailableBefore = outcomes("ShopController#create", "store_unavailable");
        double unprotectedBefore = outcomes("ShopController#lenient", "unprotected");
        REDIS.stop();
        HttpResponse<String> down =
                http.post("/orders", order, "Idempotency-Key", UUID.randomUUID().toString());
        assertProblem(down, 503);
        assertThat(down.headers().firstValue("Retry-After")).isPresent();
        assertThat(down.body())
                .as("the problem detail is generic; the Redis error goes to the log")
                .contains("The idempotency store is unavailable")
                .doesNotContainIgnoringCase("timed out")
                .doesNotContain("Redis");
        assertProblem(http.post("/feedback", "{}", "Idempotency-Token", "A".repeat(32)), 503);
        assertProblem(http.post("/inventory/sku-1/reserve", ""), 503);
        assertProblem(http.post("/idempotency/tokens?operation=POST%20/feedback", ""), 503);
        assertThat(shop.runs("orders")).as("no unprotected run").isEqualTo(runs);
        HttpResponse<String> lenient =
                http.post("/lenient", "{}", "Idempotency-Key", UUID.randomUUID().toString());
        assertThat(lenient.statusCode())
                .as("policy lenient: on-store-failure proceed")
                .isEqualTo(200);
        assertThat(shop.runs("lenient")).isEqualTo(lenientRuns + 1);

        assertThat(outcomes("ShopController#create", "store_unavailable")).isEqualTo(unavailableBefore + 1);
        assertThat(outcomes("ShopController#lenient", "unprotected")).isEqualTo(unprotectedBefore + 1);
        assertThat(meters.find("idempotency.store")
                        .tags("store", "redis", "kind", "claim", "result", "failure")
                        .timer())
                .isNotNull();

        REDIS.restart();
        // Lettuce reconnects with backoff: wait (bounded) until the application reaches Redis again. Attempts that
        // still find it down are answered 503 and run nothing, so the first one through is the first run.
        String key = UUID.randomUUID().toString();
        HttpResponse<String> recovered = http.post("/orders", order, "Idempotency-Key", key);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (recovered.statusCode() == 503 && System.nanoTime() < deadline) {
            recovered = http.post("/orders", order, "Idempotency-Key", key);
        }
        assertThat(recovered.statusCode()).isEqualTo(201);
        assertThat(shop.runs("orders")).isEqualTo(runs + 1);
        assertThat(http.post("/orders", order, "Idempotency-Key", key).headers().firstValue("Idempotent-Replayed"))
                .hasValue("true");
    }
}

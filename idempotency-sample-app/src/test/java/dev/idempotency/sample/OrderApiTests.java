package dev.idempotency.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.sample.redis.LocalRedis;
import dev.idempotency.sample.redis.LocalRedisServer;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Orders ({@code REQUEST_ID}) on a real port, with the Redis the app starts for itself when none is configured (the
 * default).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OrderApiTests {

    private static final String ORDER = "{\"item\":\"Espresso beans\",\"quantity\":2}";

    @LocalServerPort
    int port;

    @Autowired
    LocalRedis localRedis;

    @Autowired
    LettuceConnectionFactory connectionFactory;

    @Autowired
    StringRedisTemplate redis;

    TestHttp http;

    @BeforeEach
    void setUp() {
        http = new TestHttp(port);
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    @Test
    void appStartsItsOwnRedisAndUsesIt() {
        LocalRedisServer server = localRedis.server().orElseThrow();
        assertThat(server.isRunning()).isTrue();
        assertThat(server.host()).isEqualTo("127.0.0.1");
        assertThat(connectionFactory.getHostName()).isEqualTo(server.host());
        assertThat(connectionFactory.getPort()).isEqualTo(server.port()).isNotEqualTo(6379);
        http.post("/api/orders", ORDER, "Idempotency-Key", newKey());
        assertThat(redis.keys("idempotency:*")).isNotEmpty();
    }

    @Test
    void orderIsCreatedWith201AndALocationThatServesIt() {
        HttpResponse<String> created = http.post("/api/orders", ORDER, "Idempotency-Key", newKey());
        assertThat(created.statusCode()).isEqualTo(201);
        String location = created.headers().firstValue("Location").orElseThrow();
        assertThat(location).matches("/api/orders/ord-\\d+");
        assertThat(created.body())
                .contains("\"id\":\"" + location.substring("/api/orders/".length()) + "\"")
                .contains("\"item\":\"Espresso beans\"")
                .contains("\"quantity\":2")
                .contains("\"createdAt\":\"");
        assertThat(created.headers().firstValue("Idempotent-Replayed")).isEmpty();
        HttpResponse<String> fetched = http.get(location);
        assertThat(fetched.statusCode()).isEqualTo(200);
        assertThat(fetched.body()).isEqualTo(created.body());
        assertThat(http.get("/api/orders").body()).contains(created.body());
    }

    @Test
    void retryWithTheSameKeyReplaysTheFirstResponseWithoutASecondOrder() {
        String key = newKey();
        HttpResponse<String> first = http.post("/api/orders", ORDER, "Idempotency-Key", key);
        int orders = orderCount();
        HttpResponse<String> retry = http.post("/api/orders", ORDER, "Idempotency-Key", key);
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(retry.headers().firstValue("Location"))
                .isEqualTo(first.headers().firstValue("Location"));
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(orderCount()).isEqualTo(orders);
    }

    @Test
    void twentySimultaneousRetriesCreateOneOrder() {
        String key = newKey();
        int before = orderCount();
        List<HttpResponse<String>> responses = Concurrently.run(
                20, () -> http.post("/api/orders", "{\"item\":\"Tea\",\"quantity\":1}", "Idempotency-Key", key));
        long created = responses.stream()
                .filter(r -> r.statusCode() == 201
                        && r.headers().firstValue("Idempotent-Replayed").isEmpty())
                .count();
        assertThat(created).isEqualTo(1);
        assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isIn(201, 409));
        assertThat(orderCount()).isEqualTo(before + 1);
    }

    @Test
    void sameKeyWithAnotherBodyGets422() {
        String key = newKey();
        http.post("/api/orders", ORDER, "Idempotency-Key", key);
        HttpResponse<String> other =
                http.post("/api/orders", "{\"item\":\"Espresso beans\",\"quantity\":3}", "Idempotency-Key", key);
        Problems.assertProblem(other, 422, "urn:idempotency:problem:payload-mismatch");
    }

    @Test
    void orderWithoutKeyGets400() {
        int before = orderCount();
        Problems.assertProblem(http.post("/api/orders", ORDER), 400, "urn:idempotency:problem:missing-key");
        assertThat(orderCount()).isEqualTo(before);
    }

    @Test
    void invalidOrderGets400AndItsKeyStaysFree() {
        String key = newKey();
        HttpResponse<String> blank =
                http.post("/api/orders", "{\"item\":\" \",\"quantity\":1}", "Idempotency-Key", key);
        Problems.assertProblem(blank, 400, "urn:shop:problem:invalid-request");
        assertThat(blank.body()).contains("item must not be blank");
        Problems.assertProblem(
                http.post("/api/orders", "{\"item\":\"Tea\",\"quantity\":0}", "Idempotency-Key", newKey()),
                400,
                "urn:shop:problem:invalid-request");
        // A failed attempt stores nothing, so the client may reuse the key for the corrected order.
        assertThat(http.post("/api/orders", ORDER, "Idempotency-Key", key).statusCode())
                .isEqualTo(201);
    }

    @Test
    void unknownOrderGets404() {
        Problems.assertProblem(http.get("/api/orders/ord-0"), 404, "urn:shop:problem:not-found");
    }

    private int orderCount() {
        String list = http.get("/api/orders").body();
        return list.split("\"id\":", -1).length - 1;
    }
}

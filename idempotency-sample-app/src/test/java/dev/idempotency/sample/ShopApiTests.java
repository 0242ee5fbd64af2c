package dev.idempotency.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Payments, feedback tokens, stock locks and the page, on a real port with the app's own Redis (the default). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ShopApiTests {

    @LocalServerPort
    int port;

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
    void paymentIsReplayedByPaymentIdAndKeptFor48Hours() {
        String paymentId = "pay-" + newKey();
        String body = "{\"paymentId\":\"" + paymentId + "\",\"amount\":12.50,\"currency\":\"EUR\"}";
        Set<String> keysBefore = new HashSet<>(redis.keys("idempotency:*"));
        HttpResponse<String> first = http.post("/api/payments", body);
        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(first.body()).contains("\"paymentId\":\"" + paymentId + "\"").contains("\"status\":\"CAPTURED\"");
        Set<String> written = new HashSet<>(redis.keys("idempotency:*"));
        written.removeAll(keysBefore);
        assertThat(written).hasSize(1);
        assertThat(redis.getExpire(written.iterator().next(), TimeUnit.HOURS))
                .as("policy payments: ttl 48h")
                .isBetween(47L, 48L);

        HttpResponse<String> retry = http.post("/api/payments", body);
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(retry.body()).isEqualTo(first.body());

        String another = body.replace(paymentId, paymentId + "-2");
        HttpResponse<String> second = http.post("/api/payments", another);
        assertThat(second.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(second.body()).isNotEqualTo(first.body());
    }

    @Test
    void tokenWorksOnceThenGets409() {
        String token = http.token("feedback");
        String feedback = "{\"message\":\"Fast delivery\"}";
        HttpResponse<String> first = http.post("/api/feedback", feedback, "Idempotency-Token", token);
        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(first.body()).contains("\"message\":\"Fast delivery\"");
        Problems.assertProblem(
                http.post("/api/feedback", feedback, "Idempotency-Token", token),
                409,
                "urn:idempotency:problem:token-used");
        Problems.assertProblem(http.post("/api/feedback", feedback), 400, "urn:idempotency:problem:token-invalid");
    }

    @Test
    void reservationsDecrementStockAndGet409WhenItRunsOut() {
        String sku = "sku-" + newKey();
        String path = "/api/inventory/" + sku;
        assertThat(http.get(path).body()).isEqualTo("{\"sku\":\"" + sku + "\",\"available\":100}");
        HttpResponse<String> one = http.postEmpty(path + "/reserve");
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(one.body()).isEqualTo("{\"sku\":\"" + sku + "\",\"reserved\":1,\"available\":99}");
        assertThat(http.post(path + "/reserve", "{\"quantity\":60}").body()).contains("\"available\":39");
        Problems.assertProblem(http.post(path + "/reserve", "{\"quantity\":40}"), 409, "urn:shop:problem:out-of-stock");
        assertThat(http.post(path + "/reserve", "{\"quantity\":39}").body()).contains("\"available\":0");
        HttpResponse<String> empty = http.postEmpty(path + "/reserve");
        Problems.assertProblem(empty, 409, "urn:shop:problem:out-of-stock");
        assertThat(empty.body()).contains("Cannot reserve 1 of " + sku + ": 0 available");
        assertThat(http.get(path).body()).contains("\"available\":0");
        Problems.assertProblem(
                http.post(path + "/reserve", "{\"quantity\":0}"), 400, "urn:shop:problem:invalid-request");
    }

    @Test
    void rootServesTheDemoPage() {
        HttpResponse<String> page = http.get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(page.body())
                .contains("<title>Idempotency sample shop</title>")
                .contains("/idempotency/tokens")
                .contains("/api/orders")
                .contains("Idempotent-Replayed");
    }
}

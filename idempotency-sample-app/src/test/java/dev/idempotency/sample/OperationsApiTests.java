package dev.idempotency.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.testsupport.TestHttp;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The operations view of the sample: metrics per outcome, the idempotency endpoint, and unsticking a key. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OperationsApiTests {

    private static final String ORDER = "{\"item\":\"Espresso beans\",\"quantity\":2}";

    @LocalServerPort
    int port;

    @Autowired
    RequestIdExecutor requestIds;

    @Autowired
    LeaseLockManager locks;

    @Autowired
    RedisKeys keys;

    @Test
    void metricsCountEveryOutcome() {
        TestHttp http = new TestHttp(port);
        Map<String, Double> before = new LinkedHashMap<>();
        for (String[] row : EXPECTED) {
            before.put(row[0] + " " + row[1], count(row[0], row[1]));
        }
        String key = UUID.randomUUID().toString();
        http.post("/api/orders", ORDER, "Idempotency-Key", key); // executed
        http.post("/api/orders", ORDER, "Idempotency-Key", key); // replayed
        http.post("/api/orders", ORDER.replace('2', '3'), "Idempotency-Key", key); // mismatch
        http.post("/api/orders", ORDER); // missing_key
        http.post("/api/orders", ORDER, "Idempotency-Key", "has space"); // invalid_key
        String running = UUID.randomUUID().toString();
        claimAsAnotherInstance(running, Duration.ofMinutes(1));
        http.post("/api/orders", ORDER, "Idempotency-Key", running); // in_progress
        String token = http.token("feedback");
        http.post("/api/feedback", "{\"message\":\"ok\"}", "Idempotency-Token", token); // executed
        http.post("/api/feedback", "{\"message\":\"ok\"}", "Idempotency-Token", token); // token_used
        http.post("/api/feedback", "{\"message\":\"ok\"}", "Idempotency-Token", "forged"); // token_invalid
        String sku = "sku-" + UUID.randomUUID();
        try (LockHandle held = locks.acquire(sku, Duration.ofMinutes(1), Duration.ZERO)) {
            http.postEmpty("/api/inventory/" + sku + "/reserve"); // lock_busy
        }
        http.postEmpty("/api/inventory/" + sku + "/reserve"); // executed

        for (String[] row : EXPECTED) {
            assertThat(count(row[0], row[1]) - before.get(row[0] + " " + row[1]))
                    .as("%s %s", row[0], row[1])
                    .isEqualTo(Double.parseDouble(row[2]));
        }
    }

    @Test
    void endpointListsTheOperationsAndDeleteFreesAStuckKey() {
        TestHttp http = new TestHttp(port);
        assertThat(http.get("/actuator/idempotency").body())
                .contains("\"name\":\"OrderController#create\"", "\"routes\":[\"POST /api/orders\"]")
                .contains("\"name\":\"PaymentController#pay\"", "\"keySource\":\"spel:#request.paymentId\"")
                .contains("\"name\":\"FeedbackController#submit\"", "\"strategy\":\"TOKEN\"")
                .contains("\"strategy\":\"LOCK\"", "\"payments\":{\"ttl\":\"PT48H\"}")
                .contains("\"version\":");
        assertThat(http.get("/actuator/health").body()).contains("\"status\":\"UP\"");

        String key = UUID.randomUUID().toString();
        assertThat(claimAsAnotherInstance(key, Duration.ofHours(1))).isInstanceOf(Admission.Proceed.class);
        assertThat(http.post("/api/orders", ORDER, "Idempotency-Key", key).statusCode())
                .isEqualTo(409);
        HttpResponse<String> deleted = http.delete("/actuator/idempotency?operation="
                + URLEncoder.encode("POST /api/orders", StandardCharsets.UTF_8) + "&key=" + key);
        assertThat(deleted.body()).contains("\"deleted\":true");
        assertThat(http.post("/api/orders", ORDER, "Idempotency-Key", key).statusCode())
                .isEqualTo(201);
    }

    /** A claim that nobody settles, as a crashed or still running instance leaves it. */
    private Admission claimAsAnotherInstance(String key, Duration lease) {
        return requestIds.admit(new ProtectedCall("", "POST /api/orders", key, null, lease, lease, Duration.ZERO));
    }

    /** Operation, outcome, and how many calls of that outcome the test makes. */
    private static final String[][] EXPECTED = {
        {"OrderController#create", "executed", "1"},
        {"OrderController#create", "replayed", "1"},
        {"OrderController#create", "mismatch", "1"},
        {"OrderController#create", "missing_key", "1"},
        {"OrderController#create", "invalid_key", "1"},
        {"OrderController#create", "in_progress", "1"},
        {"FeedbackController#submit", "executed", "1"},
        {"FeedbackController#submit", "token_used", "1"},
        {"FeedbackController#submit", "token_invalid", "1"},
        {"InventoryController#reserve", "lock_busy", "1"},
        {"InventoryController#reserve", "executed", "1"},
    };

    private double count(String operation, String outcome) {
        HttpResponse<String> response = new TestHttp(port)
                .get("/actuator/metrics/idempotency.requests?tag="
                        + URLEncoder.encode("operation:" + operation, StandardCharsets.UTF_8) + "&tag=outcome:"
                        + outcome);
        if (response.statusCode() == 404) {
            return 0; // no call of this outcome yet
        }
        assertThat(response.statusCode()).isEqualTo(200);
        return Double.parseDouble(response.body().replaceAll(".*\"statistic\":\"COUNT\",\"value\":([0-9.]+).*", "$1"));
    }
}

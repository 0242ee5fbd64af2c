package dev.idempotency.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.key.RedisKeys;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.testsupport.TestHttp;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Metrics for every outcome, the idempotency span, and the Actuator endpoint freeing a stuck key. */
@SpringBootTest(
        classes = ShopApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=health,metrics,idempotency",
            "management.endpoint.idempotency.access=unrestricted"
        })
@Import(OperationsTests.RecordingObservations.class)
class OperationsTests {

    private static final String ORDER = "{\"item\":\"book\",\"quantity\":1}";

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        TestRedis.register(registry, TestRedis.SERVER);
    }

    @LocalServerPort
    int port;

    @Autowired
    ShopController shop;

    @Autowired
    RequestIdExecutor requestIds;

    @Autowired
    RedisKeys keys;

    @Autowired
    List<Observation.Context> observed;

    @Test
    void everyOutcomeIsCountedByOperationAndStrategy() throws Exception {
        TestHttp http = new TestHttp(port);
        Map<String, Double> before = new java.util.HashMap<>();
        for (String[] expected : EXPECTED) {
            before.put(expected[0] + expected[1], count(expected[0], expected[1]));
        }
        String key = UUID.randomUUID().toString();
        http.post("/orders", ORDER, "Idempotency-Key", key); // executed
        http.post("/orders", ORDER, "Idempotency-Key", key); // replayed
        http.post("/orders", "{\"item\":\"pen\",\"quantity\":1}", "Idempotency-Key", key); // mismatch
        http.post("/orders", ORDER); // missing_key
        http.post("/orders", ORDER, "Idempotency-Key", "with space"); // invalid_key
        String token = http.post("/idempotency/tokens?operation=POST%20/feedback", "")
                .body()
                .replaceAll(".*\"token\":\"([^\"]+)\".*", "$1");
        http.post("/feedback", "{}", "Idempotency-Token", token); // executed
        http.post("/feedback", "{}", "Idempotency-Token", token); // token_used
        http.post("/feedback", "{}", "Idempotency-Token", "A".repeat(32)); // token_invalid
        shop.hold(2);
        String running = UUID.randomUUID().toString();
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> http.post("/orders", ORDER, "Idempotency-Key", running));
        CompletableFuture<HttpResponse<String>> reserving =
                CompletableFuture.supplyAsync(() -> http.post("/inventory/sku-busy/reserve", ""));
        assertThat(shop.awaitEntered())
                .as("both gated calls are inside their methods")
                .isTrue();
        http.post("/orders", ORDER, "Idempotency-Key", running); // in_progress
        http.post("/inventory/sku-busy/reserve", ""); // lock_busy
        shop.release();
        first.get();
        reserving.get();

        for (String[] expected : EXPECTED) {
            assertThat(count(expected[0], expected[1]) - before.get(expected[0] + expected[1]))
                    .as("%s %s", expected[0], expected[1])
                    .isEqualTo(Double.parseDouble(expected[2]));
        }
        assertThat(get("/actuator/metrics/idempotency.store").body())
                .contains("\"store\"", "redis", "\"kind\"", "claim", "consume");
        assertThat(get("/actuator/metrics/idempotency.redis").body())
                .as("the deprecated alias, for one release")
                .contains("\"kind\"", "claim", "consume");
        assertThat(observed)
                .anySatisfy(context -> assertThat(context.getName()).isEqualTo("idempotency"))
                .anySatisfy(context ->
                        assertThat(context.getLowCardinalityKeyValue("outcome")).isNotNull());
    }

    @Test
    void endpointListsTheOperationsAndFreesAStuckKey() {
        TestHttp http = new TestHttp(port);
        String description = get("/actuator/idempotency").body();
        assertThat(description)
                .contains("\"name\":\"ShopController#create\"", "\"routes\":[\"POST /orders\"]")
                .contains("\"name\":\"ReportService#generate\"", "\"keySource\":\"spel:'report-' + #id\"")
                .contains("\"operation\":\"dev.idempotency.it.ReportService#generate(java.lang.String)\"")
                .contains("\"payments\":{\"ttl\":\"PT48H\"}")
                .contains("\"maxmemoryPolicy\":\"noeviction\"");

        String key = UUID.randomUUID().toString();
        Admission stuck = requestIds.admit(new ProtectedCall(
                "", "POST /orders", key, null, Duration.ofHours(1), Duration.ofHours(1), Duration.ZERO));
        assertThat(stuck).as("a crashed instance's claim").isInstanceOf(Admission.Proceed.class);
        assertThat(http.post("/orders", ORDER, "Idempotency-Key", key).statusCode())
                .isEqualTo(409);

        HttpResponse<String> deleted = http.delete("/actuator/idempotency?operation="
                + URLEncoder.encode("POST /orders", StandardCharsets.UTF_8) + "&key=" + key);
        assertThat(deleted.statusCode()).isEqualTo(200);
        assertThat(deleted.body()).contains("\"deleted\":true");
        assertThat(http.post("/orders", ORDER, "Idempotency-Key", key).statusCode())
                .isEqualTo(201);

        // A principal whose name holds ':' is addressed by user=, never taken for a raw scope.
        String userKey = UUID.randomUUID().toString();
        requestIds.admit(new ProtectedCall(
                "user:corp:alice",
                "POST /orders",
                userKey,
                null,
                Duration.ofHours(1),
                Duration.ofHours(1),
                Duration.ZERO));
        HttpResponse<String> deletedForUser = http.delete("/actuator/idempotency?operation="
                + URLEncoder.encode("POST /orders", StandardCharsets.UTF_8) + "&key=" + userKey + "&user="
                + URLEncoder.encode("corp:alice", StandardCharsets.UTF_8));
        assertThat(deletedForUser.body())
                .contains("\"deleted\":true")
                .contains(keys.requestId("user:corp:alice", "POST /orders", userKey));
    }

    /** Operation, outcome, and how many calls of that outcome the test makes. */
    private static final String[][] EXPECTED = {
        {"ShopController#create", "executed", "2"},
        {"ShopController#create", "replayed", "1"},
        {"ShopController#create", "mismatch", "1"},
        {"ShopController#create", "missing_key", "1"},
        {"ShopController#create", "invalid_key", "1"},
        {"ShopController#create", "in_progress", "1"},
        {"ShopController#feedback", "executed", "1"},
        {"ShopController#feedback", "token_used", "1"},
        {"ShopController#feedback", "token_invalid", "1"},
        {"ShopController#reserve", "lock_busy", "1"},
    };

    private double count(String operation, String outcome) {
        HttpResponse<String> response = get("/actuator/metrics/idempotency.requests?tag="
                + URLEncoder.encode("operation:" + operation, StandardCharsets.UTF_8) + "&tag=outcome:" + outcome);
        if (response.statusCode() == 404) {
            return 0; // no call of this outcome yet
        }
        assertThat(response.statusCode()).isEqualTo(200);
        String value = response.body().replaceAll(".*\"statistic\":\"COUNT\",\"value\":([0-9.]+).*", "$1");
        return Double.parseDouble(value);
    }

    private HttpResponse<String> get(String path) {
        return new TestHttp(port).get(path);
    }

    /** Records every observation the application stops, as a tracer would turn them into spans. */
    @TestConfiguration
    static class RecordingObservations {

        @Bean
        List<Observation.Context> observed() {
            return new CopyOnWriteArrayList<>();
        }

        @Bean
        ObservationHandler<Observation.Context> recordingHandler(List<Observation.Context> observed) {
            return new ObservationHandler<>() {
                @Override
                public void onStop(Observation.Context context) {
                    observed.add(context);
                }

                @Override
                public boolean supportsContext(Observation.Context context) {
                    return true;
                }
            };
        }
    }
}

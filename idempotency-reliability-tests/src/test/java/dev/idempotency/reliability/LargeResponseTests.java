package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.key.RedisKeys;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Scenario 13: responses larger than idempotency.request-id.max-response-size. */
@ReliabilityTest
class LargeResponseTests {

    private static final int LARGE_REQUESTS = 300;
    private static final int LARGE = 64 * 1024;

    @Test
    @Scenario(
            id = "13",
            title = "Responses above max-response-size = 1KB: 4 KB once and twice, then 300 x 64 KB (HTTP)",
            expected = "documented: returned in full but not stored; its key is completed without it, so a retry gets"
                    + " 409 result-not-stored and never runs again; a response under the limit is stored and replayed;"
                    + " no 5xx; Redis memory stays bounded")
    void largeResponsesAreReturnedButNotStored(@Dedicated RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        RedisKeys keys = new RedisKeys("idempotency:");
        try (App app = App.start(redis.host(), redis.port(), "idempotency.request-id.max-response-size=1KB");
                RedisAdmin admin = new RedisAdmin(redis.host(), redis.port())) {
            Http http = app.http();
            String small = UUID.randomUUID().toString();
            Http.Response smallFirst = large(http, small, 512);
            Http.Response smallAgain = large(http, small, 512);

            String big = UUID.randomUUID().toString();
            Http.Response bigFirst = large(http, big, 4096);
            Http.Response bigAgain = settled(http, big, 4096); // the large response streams out before it settles
            boolean recordLeft = admin.exists(keys.requestId("", "POST /large", big));

            long before = admin.usedMemory();
            Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
            String run = UUID.randomUUID().toString();
            Race.run(4, LARGE_REQUESTS, Duration.ofMinutes(2), i -> {
                Http.Response response = large(http, run + "-" + i, LARGE);
                String outcome = response.status() + (response.body().length() == LARGE ? " full" : " truncated");
                outcomes.computeIfAbsent(outcome, o -> new AtomicInteger()).incrementAndGet();
            });
            long growth = admin.usedMemory() - before;
            Http.Response normal = http.post("/orders", "{\"item\":\"book\"}", "Idempotency-Key", run);

            Map<String, Integer> byOutcome = new TreeMap<>();
            outcomes.forEach((outcome, count) -> byOutcome.put(outcome, count.get()));
            ReliabilityReport.measured(
                    "13",
                    "512 B: " + smallFirst.status() + " then " + smallAgain.status()
                            + (smallAgain.replayed() ? " replayed" : " not replayed") + ", executions "
                            + app.endpoints().executions("large", small) + "; 4 KB: " + bigFirst.status() + " ("
                            + bigFirst.body().length() + " B), completed without it " + recordLeft + ", retry "
                            + bigAgain.status()
                            + (bigAgain.body().contains("result-not-stored") ? " result-not-stored" : "")
                            + ", executions "
                            + app.endpoints().executions("large", big) + "; " + LARGE_REQUESTS + " x 64 KB: "
                            + byOutcome + ", used_memory growth " + growth + " B (storing them would take about "
                            + (long) LARGE_REQUESTS * LARGE + " B); next normal request " + normal.status());
            assertThat(smallAgain.replayed())
                    .as("a response under the limit is replayed")
                    .isTrue();
            assertThat(app.endpoints().executions("large", small)).isEqualTo(1);
            assertThat(bigFirst.status()).isEqualTo(200);
            assertThat(bigFirst.body()).hasSize(4096);
            assertThat(recordLeft)
                    .as("the key of a response above the limit is completed without it")
                    .isTrue();
            assertThat(bigAgain.status()).isEqualTo(409);
            assertThat(bigAgain.body()).contains("result-not-stored");
            assertThat(app.endpoints().executions("large", big))
                    .as("a retry never runs again")
                    .isEqualTo(1);
            assertThat(byOutcome).isEqualTo(Map.of("200 full", LARGE_REQUESTS));
            assertThat(growth).as("used_memory growth in bytes").isLessThan(1024 * 1024);
            assertThat(normal.status()).isEqualTo(201);
        }
    }

    /** The answer to a retry once the first call settled: meanwhile a retry is told that it is in progress. */
    private static Http.Response settled(Http http, String key, int size) {
        Http.Response[] last = new Http.Response[1];
        Await.until(Duration.ofSeconds(10), "the large response's call settled", () -> {
            last[0] = large(http, key, size);
            return !last[0].body().contains("request-in-progress");
        });
        return last[0];
    }

    private static Http.Response large(Http http, String key, int size) {
        return http.post("/large?size=" + size, "{}", "Idempotency-Key", key);
    }
}

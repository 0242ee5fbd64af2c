package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisSentinel;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Scenario 17a: Redis behind Sentinel (1 master, 1 replica, 3 Sentinels), the application connected through the
 * Sentinels as Spring Boot configures it, and a failover through the Sentinels while requests keep coming.
 */
@ReliabilityTest
class SentinelFailoverTests {

    private static final String ORDER = "{\"item\":\"book\"}";

    @Test
    @Scenario(
            id = "17a",
            title = "Sentinel failover (SENTINEL FAILOVER) with wait-for-replicas = 1: 50 orders completed before it,"
                    + " then their duplicates and 50 new orders while the application reconnects to the new master",
            expected = "requests during the switch are answered 503 (never a silent run); afterwards every duplicate"
                    + " is replayed from the promoted replica and every key ran exactly once")
    void failoverThroughTheSentinels() throws Exception {
        try (RedisSentinel sentinel = RedisSentinel.start();
                App app = App.start(
                        "127.0.0.1",
                        0,
                        with(
                                sentinel.springProperties(),
                                "idempotency.redis.wait-for-replicas=1",
                                "idempotency.redis.wait-for-replicas-timeout=2s",
                                "spring.data.redis.timeout=1s"))) {
            ReliabilityReport.redisVersion(sentinel.master().version());
            String run = UUID.randomUUID().toString();
            Race.until(
                    Duration.ofSeconds(30), "claims confirmed by the replica", () -> post(app, run + "-warm") == 201);
            for (int k = 0; k < 50; k++) {
                assertThat(post(app, run + "-" + k)).isEqualTo(201);
            }
            int oldMaster = sentinel.master().port();
            sentinel.failover();
            Map<Integer, AtomicInteger> during = new ConcurrentHashMap<>();
            boolean back = Race.await(Duration.ofSeconds(60), 50, () -> {
                int status = post(app, run + "-probe");
                during.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                return status == 201;
            });
            Map<Integer, Integer> duplicates = new TreeMap<>();
            int replayed = 0;
            for (int k = 0; k < 50; k++) {
                Http.Response duplicate = app.http().post("/orders", ORDER, "Idempotency-Key", run + "-" + k);
                duplicates.merge(duplicate.status(), 1, Integer::sum);
                replayed += duplicate.replayed() ? 1 : 0;
            }
            Map<Integer, Integer> fresh = new TreeMap<>();
            for (int k = 50; k < 100; k++) {
                fresh.merge(post(app, run + "-" + k), 1, Integer::sum);
            }
            int runTwice = 0;
            for (int k = 0; k < 100; k++) {
                runTwice += app.endpoints().executions("orders", run + "-" + k) > 1 ? 1 : 0;
            }
            ReliabilityReport.measured(
                    "17a",
                    "master " + oldMaster + " -> " + sentinel.master().port() + "; while switching: "
                            + StatusCounts.of(during)
                            + " until the application wrote to the new master (" + back + "); duplicates of the 50"
                            + " completed orders: " + duplicates + " (replayed " + replayed + "); 50 new orders: "
                            + fresh + "; keys run twice: " + runTwice);
            assertThat(back).as("the application reaches the new master").isTrue();
            assertThat(during.keySet()).as("answers while switching").isSubsetOf(201, 503);
            assertThat(replayed)
                    .as("duplicates replayed from the promoted replica")
                    .isEqualTo(50);
            assertThat(fresh).isEqualTo(Map.of(201, 50));
            assertThat(runTwice).as("keys run twice").isZero();
        }
    }

    private static int post(App app, String key) {
        return app.http().post("/orders", ORDER, "Idempotency-Key", key).status();
    }

    private static String[] with(Map<String, String> properties, String... more) {
        return java.util.stream.Stream.concat(
                        properties.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue()),
                        java.util.Arrays.stream(more))
                .toArray(String[]::new);
    }
}

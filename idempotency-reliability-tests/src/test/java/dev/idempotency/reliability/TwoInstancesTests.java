package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Scenario 1: two application instances, each with its own connection factory, racing on the same keys over HTTP. */
@ReliabilityTest
class TwoInstancesTests {

    private static final int KEYS = 100;
    private static final int DUPLICATES = 64;

    @Test
    @Scenario(
            id = "1",
            title = "2 instances x 64 concurrent duplicates x 100 keys (HTTP, REQUEST_ID)",
            expected = "executions per key = 1; every other duplicate gets the replay or 409; no 5xx")
    void concurrentDuplicatesAcrossInstancesRunOnce(@Dedicated RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        try (App first = App.start(redis.host(), redis.port());
                App second = App.start(redis.host(), redis.port())) {
            App[] instances = {first, second};
            String run = UUID.randomUUID().toString();
            Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
            AtomicInteger replays = new AtomicInteger();
            CyclicBarrier barrier = new CyclicBarrier(DUPLICATES);
            Race.run(DUPLICATES, DUPLICATES, Duration.ofMinutes(3), thread -> {
                App instance = instances[thread % 2];
                for (int k = 0; k < KEYS; k++) {
                    awaitAll(barrier);
                    Http.Response response =
                            instance.http().post("/orders", "{\"item\":\"book\"}", "Idempotency-Key", run + "-" + k);
                    statuses.computeIfAbsent(response.status(), s -> new AtomicInteger())
                            .incrementAndGet();
                    if (response.replayed()) {
                        replays.incrementAndGet();
                    }
                }
            });
            int[] perKey = new int[KEYS];
            Map<Integer, Integer> histogram = new TreeMap<>();
            for (int k = 0; k < KEYS; k++) {
                String key = run + "-" + k;
                perKey[k] = first.endpoints().executions("orders", key)
                        + second.endpoints().executions("orders", key);
                histogram.merge(perKey[k], 1, Integer::sum);
            }
            Map<Integer, Integer> byStatus = new TreeMap<>();
            statuses.forEach((status, count) -> byStatus.put(status, count.get()));
            ReliabilityReport.measured(
                    "1",
                    KEYS * DUPLICATES + " requests: keys by executions " + histogram + " (executions=keys); statuses "
                            + byStatus + " of which " + replays + " replays; instance executions "
                            + first.endpoints().totalExecutions() + " + "
                            + second.endpoints().totalExecutions());
            assertThat(histogram).as("keys by number of executions").isEqualTo(Map.of(1, KEYS));
            assertThat(byStatus.keySet()).as("statuses").isSubsetOf(201, 409);
            assertThat(byStatus.get(201) - replays.get())
                    .as("responses that executed")
                    .isEqualTo(KEYS);
        }
    }

    private static void awaitAll(CyclicBarrier barrier)
            throws InterruptedException, BrokenBarrierException, TimeoutException {
        barrier.await(30, TimeUnit.SECONDS);
    }
}

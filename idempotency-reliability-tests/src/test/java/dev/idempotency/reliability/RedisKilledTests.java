package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Scenario 2: Redis dies with SIGKILL while requests flow, stays down, and comes back empty (the harness runs Redis
 * without persistence) on the same port. The application is never restarted.
 */
@ReliabilityTest
class RedisKilledTests {

    private static final int WORKERS = 8;
    private static final String ORDER = "{\"item\":\"book\"}";

    private enum Phase {
        UP,
        DOWN,
        STOP
    }

    @Test
    @Scenario(
            id = "2",
            title = "Redis killed (kill -9) under HTTP load, restarted 2 s later",
            expected = "while down every request is 503 and nothing runs; the app recovers without a restart;"
                    + " afterwards every key runs exactly once (duplicates 0)")
    void redisKilledUnderLoadThenRestarted(@Dedicated RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        try (App app = App.start(redis.host(), redis.port())) {
            Http http = app.http();
            String run = UUID.randomUUID().toString();
            AtomicInteger nextKey = new AtomicInteger();
            Map<Integer, AtomicInteger> downStatuses = new ConcurrentHashMap<>();
            Set<String> downKeys = ConcurrentHashMap.newKeySet();
            AtomicReference<Phase> phase = new AtomicReference<>(Phase.UP);

            Thread load = new Thread(() -> {
                try {
                    Race.run(WORKERS, WORKERS, Duration.ofMinutes(2), worker -> {
                        for (int i = 0; i < 5_000 && phase.get() != Phase.STOP; i++) {
                            Phase sentIn = phase.get();
                            String key = run + "-" + nextKey.getAndIncrement();
                            Http.Response response = http.post("/orders", ORDER, "Idempotency-Key", key);
                            if (sentIn == Phase.DOWN && phase.get() == Phase.DOWN) {
                                downKeys.add(key);
                                downStatuses
                                        .computeIfAbsent(response.status(), s -> new AtomicInteger())
                                        .incrementAndGet();
                            }
                        }
                    });
                } catch (Exception ex) {
                    throw new IllegalStateException(ex);
                }
            });
            load.start();
            Race.sleep(1_000);
            int beforeKill = app.endpoints().totalExecutions();

            redis.kill();
            assertThat(Race.await(Duration.ofSeconds(10), 50, () -> post(http, run + "-probe-down") == 503))
                    .as("requests are refused once Redis is gone")
                    .isTrue();
            int atDown = app.endpoints().totalExecutions();
            phase.set(Phase.DOWN);
            Race.sleep(2_000);
            phase.set(Phase.STOP);
            load.join(30_000);
            int duringDown = app.endpoints().totalExecutions() - atDown;

            redis.restart();
            long restarted = System.nanoTime();
            List<Integer> probes = new CopyOnWriteArrayList<>();
            boolean recovered = Race.await(Duration.ofSeconds(60), 50, () -> {
                int status = post(http, run + "-probe-up-" + probes.size());
                probes.add(status);
                return status == 201;
            });
            long recoveryMillis = (System.nanoTime() - restarted) / 1_000_000;

            // Every key refused while Redis was down, sent again by two concurrent clients: each must run once.
            List<String> retried = List.copyOf(downKeys);
            Map<Integer, AtomicInteger> retryStatuses = new ConcurrentHashMap<>();
            Race.run(16, 2 * retried.size(), Duration.ofMinutes(2), i -> {
                String key = retried.get(i / 2);
                for (int attempt = 0; attempt < 50; attempt++) {
                    int status = post(http, key);
                    retryStatuses
                            .computeIfAbsent(status, s -> new AtomicInteger())
                            .incrementAndGet();
                    if (status == 201) {
                        return;
                    }
                    Race.sleep(100);
                }
            });
            Map<Integer, Integer> keysByExecutions = new TreeMap<>();
            for (String key : retried) {
                keysByExecutions.merge(app.endpoints().executions("orders", key), 1, Integer::sum);
            }

            ReliabilityReport.measured(
                    "2",
                    "before the kill " + beforeKill + " executions; while down: " + StatusCounts.of(downStatuses)
                            + " over "
                            + downKeys.size() + " keys, executions " + duringDown + "; recovery after restart "
                            + recoveryMillis + " ms (" + probes.size() + " probes, last "
                            + probes.get(probes.size() - 1)
                            + "); retry of the refused keys x2 concurrent: " + StatusCounts.of(retryStatuses)
                            + ", keys by executions " + keysByExecutions);
            assertThat(downKeys).as("requests sent while Redis was down").isNotEmpty();
            assertThat(StatusCounts.of(downStatuses).keySet())
                    .as("statuses while down")
                    .containsOnly(503);
            assertThat(duringDown).as("executions while Redis was down").isZero();
            assertThat(recovered)
                    .as("the application recovers after the restart")
                    .isTrue();
            assertThat(keysByExecutions)
                    .as("keys by executions after the restart (duplicates 0)")
                    .isEqualTo(Map.of(1, retried.size()));
        }
    }

    private static int post(Http http, String key) {
        return http.post("/orders", ORDER, "Idempotency-Key", key).status();
    }
}

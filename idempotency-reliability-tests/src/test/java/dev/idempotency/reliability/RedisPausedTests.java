package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Scenario 3: Redis stops answering (SIGSTOP) for longer than the command timeout while its connections stay open.
 * Lettuce gives up on the commands, but they sit in the socket and Redis executes them on resume: claims whose
 * requests were answered 503 long ago.
 */
@ReliabilityTest
class RedisPausedTests {

    private static final int WORKERS = 8;
    private static final Duration LEASE = Duration.ofMillis(1500);
    private static final Duration PAUSE = Duration.ofMillis(2500);
    private static final String ORDER = "{\"item\":\"book\"}";

    @Test
    @Scenario(
            id = "3",
            title = "Redis paused (SIGSTOP) 2.5 s > 500 ms command timeout; claim lease 1.5 s",
            expected = "503 while paused, nothing runs; timed-out claims still execute on resume but block their key"
                    + " no longer than the lease; a retry after the lease runs once")
    void redisPausedLongerThanTheCommandTimeout(@Dedicated RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        RedisKeys keys = new RedisKeys("idempotency:");
        try (App app = App.start(
                        redis.host(), redis.port(), "idempotency.request-id.lease=" + LEASE.toMillis() + "ms");
                RedisAdmin admin = new RedisAdmin(redis.host(), redis.port())) {
            Http http = app.http();
            String run = UUID.randomUUID().toString();
            assertThat(post(http, run + "-warm-up")).isEqualTo(201);
            int beforePause = app.endpoints().totalExecutions();

            Set<String> pausedKeys = ConcurrentHashMap.newKeySet();
            Map<Integer, AtomicInteger> pausedStatuses = new ConcurrentHashMap<>();
            AtomicInteger next = new AtomicInteger();
            redis.pause();
            long pauseEnds = System.nanoTime() + PAUSE.toNanos();
            try {
                Race.run(WORKERS, WORKERS, Duration.ofSeconds(30), worker -> {
                    for (int i = 0; i < 100 && System.nanoTime() < pauseEnds - 600_000_000L; i++) {
                        String key = run + "-" + next.getAndIncrement();
                        pausedKeys.add(key);
                        pausedStatuses
                                .computeIfAbsent(post(http, key), s -> new AtomicInteger())
                                .incrementAndGet();
                    }
                });
                Race.sleep(Math.max(0, (pauseEnds - System.nanoTime()) / 1_000_000));
            } finally {
                redis.resume();
            }
            long resumed = System.nanoTime();
            int duringPause = app.endpoints().totalExecutions() - beforePause;

            // The timed-out claims run now; count the keys they block.
            Race.sleep(200);
            List<String> keysSent = new ArrayList<>(pausedKeys);
            long strayClaims = keysSent.stream()
                    .filter(key -> admin.exists(keys.requestId("", "POST /orders", key)))
                    .count();
            Map<Integer, Integer> rightAfterResume = new TreeMap<>();
            for (String key : keysSent) {
                rightAfterResume.merge(post(http, key), 1, Integer::sum);
            }

            // One lease after the resume (plus a margin for the retry itself), no key may still be blocked.
            long leaseEnd = resumed + LEASE.toNanos() + 500_000_000L;
            Race.sleep(Math.max(0, (leaseEnd - System.nanoTime()) / 1_000_000));
            Map<Integer, Integer> afterLease = new TreeMap<>();
            for (String key : keysSent) {
                afterLease.merge(post(http, key), 1, Integer::sum);
            }
            Map<Integer, Integer> keysByExecutions = new TreeMap<>();
            for (String key : keysSent) {
                keysByExecutions.merge(app.endpoints().executions("orders", key), 1, Integer::sum);
            }

            ReliabilityReport.measured(
                    "3",
                    "while paused: " + StatusCounts.of(pausedStatuses) + " over " + keysSent.size()
                            + " keys, executions "
                            + duringPause + "; claims executed by Redis after their 503 (stray): " + strayClaims
                            + "; retry right after resume: " + rightAfterResume + "; retry one lease later: "
                            + afterLease + "; keys by executions " + keysByExecutions);
            assertThat(keysSent).as("requests sent while paused").isNotEmpty();
            assertThat(StatusCounts.of(pausedStatuses).keySet())
                    .as("statuses while paused")
                    .containsOnly(503);
            assertThat(duringPause).as("executions while paused").isZero();
            assertThat(afterLease.getOrDefault(409, 0))
                    .as("keys still blocked one lease after the resume")
                    .isZero();
            assertThat(keysByExecutions).as("keys by executions").isEqualTo(Map.of(1, keysSent.size()));
        }
    }

    private static int post(Http http, String key) {
        return http.post("/orders", ORDER, "Idempotency-Key", key).status();
    }

    @Test
    @Scenario(
            id = "3b",
            title =
                    "Redis frozen (SIGSTOP) for 2 s right after the method ran, so storing its result fails; lease 20 s",
            expected = "the caller gets its result; the completion is retried while the lease lasts and lands after"
                    + " the freeze; retries meanwhile get 503 or 409, never a second run; afterwards the replay"
                    + " (executions 1)")
    void completionSurvivesABlip(@Dedicated RedisServer redis) {
        ReliabilityReport.redisVersion(redis.version());
        Duration lease = Duration.ofSeconds(20);
        try (CoreStack app = CoreStack.connect(redis.host(), redis.port(), Duration.ofMillis(500), "blip:")) {
            AtomicInteger runs = new AtomicInteger();
            RequestIdCall call = new RequestIdCall(
                    app.keys.requestId("", "op", UUID.randomUUID().toString()),
                    null,
                    Duration.ofHours(1),
                    lease,
                    Duration.ZERO);
            String result = app.executor.execute(
                    call,
                    () -> {
                        redis.pause(); // Redis goes away right after the work, before its result is stored
                        return "result-" + runs.incrementAndGet();
                    },
                    ResultCodec.utf8());
            Map<String, AtomicInteger> duringFreeze = new TreeMap<>();
            long freezeEnds = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() < freezeEnds) {
                duringFreeze
                        .computeIfAbsent(attempt(app, call, runs), k -> new AtomicInteger())
                        .incrementAndGet();
            }
            redis.resume();
            Map<String, AtomicInteger> afterwards = new TreeMap<>();
            boolean replayed = Race.await(Duration.ofSeconds(30), 50, () -> {
                String outcome = attempt(app, call, runs);
                afterwards.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
                return outcome.equals("result-1");
            });
            ReliabilityReport.measured(
                    "3b",
                    "caller got " + result + "; retries during the freeze " + duringFreeze + "; after it "
                            + afterwards + (replayed ? ", ending with the replay" : "") + "; executions "
                            + runs.get());
            assertThat(result).isEqualTo("result-1");
            assertThat(replayed).as("a retry after the freeze gets the replay").isTrue();
            assertThat(runs).as("executions").hasValue(1);
        }
    }

    private static String attempt(CoreStack app, RequestIdCall call, AtomicInteger runs) {
        try {
            return app.executor.execute(call, () -> "result-" + runs.incrementAndGet(), ResultCodec.utf8());
        } catch (RequestInProgressException ex) {
            return "409";
        } catch (IdempotencyStoreUnavailableException ex) {
            return "503";
        }
    }
}

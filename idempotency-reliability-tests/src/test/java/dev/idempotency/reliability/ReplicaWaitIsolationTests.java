package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisInfo;
import dev.idempotency.testsupport.RedisReplicaPair;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Scenario 14: with wait-for-replicas, a claim and its {@code WAIT} travel on a dedicated connection. Redis holds a
 * connection for the whole {@code WAIT}: on the application's shared connection a paused replica would stall every
 * other command (locks, tokens, the application's own Redis calls) for the whole timeout.
 */
@ReliabilityTest
class ReplicaWaitIsolationTests {

    private static final Duration WAIT_TIMEOUT = Duration.ofSeconds(5);
    private static final int CLAIMERS = 4;
    private static final int OTHER_OPERATIONS = 600;

    @Test
    @Scenario(
            id = "14",
            title = "wait-for-replicas = 1 (timeout 5 s) with the replica paused: 4 claims blocked in WAIT while 600"
                    + " other Redis operations run on the same connection factory (200 lock cycles and 200 token"
                    + " cycles of a second instance without wait-for-replicas, 200 plain StringRedisTemplate SETs),"
                    + " compared with a healthy replica",
            expected = "the blocked claims answer 503 after the timeout, nothing runs; the other operations all"
                    + " succeed and finish while the claims are still blocked (throughput measured against the"
                    + " healthy run)")
    void waitForReplicasDoesNotStallTheApplicationsOtherTraffic(RedisReplicaPair pair) throws Exception {
        ReliabilityReport.redisVersion(pair.master().version());
        String prefix = "isolation:" + UUID.randomUUID() + ":";
        LettuceConnectionFactory factory =
                CoreStack.standalone(pair.master().host(), pair.master().port(), Duration.ofSeconds(10));
        // Locks and tokens wait for replicas too under wait-for-replicas: the other traffic comes from an instance
        // without it, sharing the connection factory, where a stalled shared connection would show.
        try (CoreStack app = CoreStack.on(factory, prefix, 1, WAIT_TIMEOUT);
                CoreStack others = CoreStack.on(factory, prefix + "others:", 0, WAIT_TIMEOUT)) {
            StringRedisTemplate plain = new StringRedisTemplate(factory);
            Race.await(
                    Duration.ofSeconds(20),
                    100,
                    () -> claim(app, "warm-" + UUID.randomUUID()).equals("ok"));
            long healthyNanos = otherTraffic(others, plain, "healthy");

            pair.replica().pause();
            List<String> claims = new CopyOnWriteArrayList<>();
            List<Long> claimMillis = new CopyOnWriteArrayList<>();
            List<CompletableFuture<Void>> blocked;
            long pausedNanos;
            boolean claimsStillBlocked;
            try {
                blocked = IntStream.range(0, CLAIMERS)
                        .mapToObj(i -> CompletableFuture.runAsync(() -> {
                            long start = System.nanoTime();
                            claims.add(claim(app, "blocked-" + i));
                            claimMillis.add((System.nanoTime() - start) / 1_000_000);
                        }))
                        .toList();
                boolean waiting = Race.await(Duration.ofSeconds(4), 10, () -> blockedClients(pair) == CLAIMERS);
                assertThat(waiting)
                        .as("all claims blocked in WAIT on the master")
                        .isTrue();
                pausedNanos = otherTraffic(others, plain, "paused");
                claimsStillBlocked = claims.isEmpty();
                CompletableFuture.allOf(blocked.toArray(CompletableFuture[]::new))
                        .get();
            } finally {
                pair.replica().resume();
            }
            double ratio = (double) healthyNanos / pausedNanos;
            ReliabilityReport.measured(
                    "14",
                    OTHER_OPERATIONS + " other operations: " + healthyNanos / 1_000_000 + " ms with a healthy replica, "
                            + pausedNanos / 1_000_000 + " ms with the replica paused and " + CLAIMERS
                            + " claims blocked in WAIT (throughput " + String.format("%.0f%%", 100 * ratio)
                            + " of the healthy run); claims still blocked when the other operations ended: "
                            + claimsStillBlocked + "; claims answered " + claims + " after " + claimMillis + " ms");
            assertThat(claims).as("claims not confirmed by the paused replica").containsOnly("503");
            assertThat(claimsStillBlocked)
                    .as("the other operations finished while the claims were blocked in WAIT, not after them")
                    .isTrue();
        } finally {
            factory.destroy();
        }
    }

    /** Connections Redis holds in a blocking command (here: WAIT). */
    private static int blockedClients(RedisReplicaPair pair) {
        try (RedisAdmin admin =
                new RedisAdmin(pair.master().host(), pair.master().port())) {
            return Integer.parseInt(
                    RedisInfo.field(admin.info("clients"), "blocked_clients").trim());
        }
    }

    /** Locks, tokens and the application's own commands; every one must succeed. Returns the elapsed nanoseconds. */
    private static long otherTraffic(CoreStack app, StringRedisTemplate plain, String run) throws Exception {
        AtomicInteger failures = new AtomicInteger();
        long start = System.nanoTime();
        Race.run(4, OTHER_OPERATIONS, Duration.ofSeconds(60), i -> {
            try {
                switch (i % 3) {
                    case 0 -> {
                        try (LockHandle lock =
                                app.locks.acquire(run + "-sku-" + i, Duration.ofSeconds(10), Duration.ZERO)) {
                            lock.fencingToken();
                        }
                    }
                    case 1 ->
                        app.tokens.consume(
                                "user",
                                "submit",
                                app.tokens
                                        .issue("user", "submit", Duration.ofMinutes(1))
                                        .token());
                    default -> plain.opsForValue().set("isolation:" + run + ":" + i, "v");
                }
            } catch (RuntimeException ex) {
                failures.incrementAndGet();
            }
        });
        assertThat(failures).as("other operations that failed (" + run + ")").hasValue(0);
        return System.nanoTime() - start;
    }

    private static String claim(CoreStack app, String key) {
        RequestIdCall call = new RequestIdCall(
                app.keys.requestId("", "op", key), null, Duration.ofMinutes(5), Duration.ofSeconds(30), Duration.ZERO);
        try {
            return app.executor.execute(call, () -> "ok", ResultCodec.utf8());
        } catch (IdempotencyStoreUnavailableException ex) {
            return "503";
        }
    }
}

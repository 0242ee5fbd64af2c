package dev.idempotency.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.support.Race;
import dev.idempotency.support.RedisContract;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** The {@code REQUEST_ID} contract, run against every Redis setup. */
abstract class RequestIdContract extends RedisContract {

    private static final Duration TTL = Duration.ofMinutes(5);
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final RequestIdStore store;
    private final RequestIdExecutor executor;

    RequestIdContract(RedisConnectionFactory connectionFactory) {
        this(connectionFactory, RequestIdStore.ClaimCommand.AUTO);
    }

    RequestIdContract(RedisConnectionFactory connectionFactory, RequestIdStore.ClaimCommand claims) {
        super(connectionFactory);
        store = new RequestIdStore(redis, 0, Duration.ZERO, claims);
        executor = new RequestIdExecutor(store, renewer);
    }

    private String newKey() {
        return keys.requestId("user", "POST /orders", UUID.randomUUID().toString());
    }

    @Test
    void firstClaimAcquiresAndDuplicateSeesItInProgress() {
        String key = newKey();
        assertThat(store.claim(key, "f".repeat(22), LEASE)).isInstanceOf(ClaimOutcome.Acquired.class);
        assertThat(store.claim(key, "f".repeat(22), LEASE)).isInstanceOf(ClaimOutcome.InProgress.class);
        assertThat(pttl(key)).isBetween(1L, LEASE.toMillis());
    }

    @Test
    void completedRecordIsReplayedWithItsTtl() {
        String key = newKey();
        Claim claim = acquire(key, "f".repeat(22));
        assertThat(store.complete(claim, bytes("result"), TTL)).isTrue();
        ClaimOutcome duplicate = store.claim(key, "f".repeat(22), LEASE);
        assertThat(duplicate)
                .isInstanceOfSatisfying(
                        ClaimOutcome.Replay.class,
                        replay -> assertThat(replay.result()).isEqualTo(bytes("result")));
        assertThat(pttl(key)).isGreaterThan(LEASE.toMillis()).isLessThanOrEqualTo(TTL.toMillis());
    }

    @Test
    void differentFingerprintIsAMismatchButNoFingerprintIsNot() {
        String key = newKey();
        store.complete(acquire(key, "a".repeat(22)), bytes("r"), TTL);
        assertThat(store.claim(key, "b".repeat(22), LEASE)).isInstanceOf(ClaimOutcome.Mismatch.class);
        assertThat(store.claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.Replay.class);
    }

    @Test
    void releasedClaimCanBeClaimedAgain() {
        String key = newKey();
        assertThat(store.release(acquire(key, null))).isTrue();
        assertThat(exists(key)).isFalse();
        assertThat(store.claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.Acquired.class);
    }

    @Test
    void renewExtendsTheLease() {
        String key = newKey();
        Claim claim = acquire(key, null);
        assertThat(store.renew(claim, Duration.ofMinutes(10))).isTrue();
        assertThat(pttl(key)).isGreaterThan(LEASE.toMillis());
    }

    @Test
    void staleOwnerCannotCompleteRenewOrReleaseAnotherOwnersClaim() {
        String key = newKey();
        Claim stale = acquire(key, null);
        delete(key); // the stale owner's lease ran out
        Claim current = acquire(key, null);
        assertThat(store.complete(stale, bytes("stale"), TTL)).isFalse();
        assertThat(store.renew(stale, TTL)).isFalse();
        assertThat(store.release(stale)).isFalse();
        assertThat(store.claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.InProgress.class);
        assertThat(store.complete(current, bytes("current"), TTL)).isTrue();
        assertThat(store.complete(current, bytes("again"), TTL))
                .as("completed records are final")
                .isFalse();
        assertThat(((ClaimOutcome.Replay) store.claim(key, null, LEASE)).result())
                .isEqualTo(bytes("current"));
    }

    @Test
    void executorRunsOnceAndReplaysTheStoredResult() {
        RequestIdCall call = call(newKey(), Duration.ZERO);
        AtomicInteger runs = new AtomicInteger();
        String first = executor.execute(call, () -> "run-" + runs.incrementAndGet(), ResultCodec.utf8());
        String second = executor.execute(call, () -> "run-" + runs.incrementAndGet(), ResultCodec.utf8());
        assertThat(first).isEqualTo("run-1");
        assertThat(second).isEqualTo("run-1");
        assertThat(runs).hasValue(1);
    }

    @Test
    void failedWorkReleasesTheClaimSoARetryRunsAgain() {
        RequestIdCall call = call(newKey(), Duration.ZERO);
        assertThatThrownBy(() -> executor.execute(
                        call,
                        () -> {
                            throw new IllegalStateException("boom");
                        },
                        ResultCodec.utf8()))
                .hasMessage("boom");
        assertThat(exists(call.recordKey())).isFalse();
        assertThat(executor.execute(call, () -> "second", ResultCodec.utf8())).isEqualTo("second");
    }

    @Test
    void resultsNotWorthStoringReleaseTheClaim() {
        RequestIdCall call = call(newKey(), Duration.ZERO);
        ResultCodec<String> storesNothing = new ResultCodec<>() {
            @Override
            public boolean shouldStore(String result) {
                return false;
            }

            @Override
            public byte[] encode(String result) {
                return bytes(result);
            }

            @Override
            public String decode(byte[] stored) {
                return new String(stored, StandardCharsets.UTF_8);
            }
        };
        assertThat(executor.execute(call, () -> "503", storesNothing)).isEqualTo("503");
        assertThat(exists(call.recordKey())).isFalse();
    }

    @Test
    void resultThatCannotBeEncodedIsReturnedAndItsClaimReleased() {
        RequestIdCall call = call(newKey(), Duration.ZERO);
        ResultCodec<String> failing = new ResultCodec<>() {
            @Override
            public byte[] encode(String result) {
                throw new IllegalStateException("not serializable");
            }

            @Override
            public String decode(byte[] stored) {
                return "";
            }
        };
        assertThat(executor.execute(call, () -> "ran", failing)).isEqualTo("ran");
        assertThat(exists(call.recordKey())).isFalse();
    }

    @Test
    void resultAboveTheSizeLimitIsReturnedButNotStored() {
        RequestIdExecutor limited = new RequestIdExecutor(store, renewer, 10);
        RequestIdCall call = call(newKey(), Duration.ZERO);
        assertThat(limited.execute(call, () -> "x".repeat(11), ResultCodec.utf8()))
                .hasSize(11);
        assertThat(exists(call.recordKey())).isFalse();
        assertThat(limited.execute(call, () -> "x".repeat(10), ResultCodec.utf8()))
                .hasSize(10);
        assertThat(store.claim(call.recordKey(), null, LEASE)).isInstanceOf(ClaimOutcome.Replay.class);
    }

    @Test
    void duplicateWhileRunningIsRejectedOrWaitsForTheReplay() throws Exception {
        String key = newKey();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Thread original = new Thread(() -> executor.execute(
                call(key, Duration.ZERO),
                () -> {
                    running.countDown();
                    await(finish);
                    return "original";
                },
                ResultCodec.utf8()));
        original.start();
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> executor.execute(call(key, Duration.ZERO), () -> "dup", ResultCodec.utf8()))
                .isInstanceOf(RequestInProgressException.class);
        Thread releaser = new Thread(() -> {
            sleep(200);
            finish.countDown();
        });
        releaser.start();
        assertThat(executor.execute(call(key, Duration.ofSeconds(10)), () -> "dup", ResultCodec.utf8()))
                .isEqualTo("original");
        original.join(10_000);
    }

    @Test
    void payloadMismatchThroughTheExecutor() {
        String key = newKey();
        executor.execute(
                new RequestIdCall(key, "a".repeat(22), TTL, LEASE, Duration.ZERO), () -> "x", ResultCodec.utf8());
        assertThatThrownBy(() -> executor.execute(
                        new RequestIdCall(key, "b".repeat(22), TTL, LEASE, Duration.ZERO),
                        () -> "y",
                        ResultCodec.utf8()))
                .isInstanceOf(PayloadMismatchException.class);
    }

    @Test
    void leaseIsRenewedWhileTheWorkRuns() {
        Duration shortLease = Duration.ofMillis(300);
        String key = newKey();
        String result = executor.execute(
                new RequestIdCall(key, null, TTL, shortLease, Duration.ZERO),
                () -> {
                    for (int i = 0; i < 6; i++) {
                        sleep(200); // three leases in all
                        assertThat(store.claim(key, null, shortLease))
                                .as("the claim outlives its lease while the work runs")
                                .isInstanceOf(ClaimOutcome.InProgress.class);
                    }
                    return "slow";
                },
                ResultCodec.utf8());
        assertThat(result).isEqualTo("slow");
        assertThat(store.claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.Replay.class);
    }

    @Test
    void sixtyFourThreadsRacingOnAHundredKeysClaimEachKeyExactlyOnce() throws Exception {
        int keysCount = 100;
        int duplicates = 64;
        String[] raceKeys = new String[keysCount];
        for (int i = 0; i < keysCount; i++) {
            raceKeys[i] = newKey();
        }
        ConcurrentHashMap<String, AtomicInteger> executions = new ConcurrentHashMap<>();
        AtomicInteger replays = new AtomicInteger();
        Race.run(64, keysCount * duplicates, i -> {
            String key = raceKeys[i % keysCount];
            try {
                executor.execute(
                        call(key, Duration.ofSeconds(20)),
                        () -> {
                            executions
                                    .computeIfAbsent(key, k -> new AtomicInteger())
                                    .incrementAndGet();
                            return key;
                        },
                        ResultCodec.utf8());
            } catch (RequestInProgressException ex) {
                throw new AssertionError("waiting duplicates must get the replay", ex);
            }
            replays.incrementAndGet();
        });
        assertThat(executions).hasSize(keysCount);
        assertThat(executions.values()).allSatisfy(count -> assertThat(count).hasValue(1));
        assertThat(replays).hasValue(keysCount * duplicates);
        System.out.printf(
                "[race] request-id: %d calls on %d keys, executions per key max=%d, double claims=%d%n",
                keysCount * duplicates,
                keysCount,
                executions.values().stream().mapToInt(AtomicInteger::get).max().orElse(0),
                executions.values().stream().mapToInt(c -> c.get() - 1).sum());
    }

    private Claim acquire(String key, String fingerprint) {
        ClaimOutcome outcome = store.claim(key, fingerprint, LEASE);
        assertThat(outcome).isInstanceOf(ClaimOutcome.Acquired.class);
        return ((ClaimOutcome.Acquired) outcome).claim();
    }

    private static RequestIdCall call(String key, Duration wait) {
        return new RequestIdCall(key, null, TTL, LEASE, wait);
    }

    static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}

package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.ResultNotStoredException;
import dev.idempotency.Strategy;
import dev.idempotency.UndecodableResultException;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.requestid.UndecodableResults;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.support.StoreContract;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.Topologies;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code REQUEST_ID} contract, run against every Redis topology users run and against memory. */
@ParameterizedClass
@MethodSource("setups")
class RequestIdContractTests extends StoreContract {

    private static final Duration TTL = Duration.ofMinutes(5);
    private static final Duration LEASE = Duration.ofSeconds(30);

    @Parameter(1)
    RedisRequestIdStore.ClaimCommand claims;

    private RequestIdStore records;
    private RequestIdStrategy executor;

    /** Every store, and on Redis claims by script as on Redis 6.2, where {@code SET NX GET} is refused. */
    static Stream<Arguments> setups() {
        return Stream.concat(
                stores().stream().map(store -> Arguments.of(store, RedisRequestIdStore.ClaimCommand.AUTO)),
                Stream.of(Arguments.of(new Store(Topologies.STANDALONE), RedisRequestIdStore.ClaimCommand.SCRIPT)));
    }

    @Override
    protected void setUp() {
        records = requestIdStore(claims);
        executor = executor(Long.MAX_VALUE);
    }

    private RequestIdStrategy executor(long maxResultSize) {
        return executor(maxResultSize, UndecodableResults.FAIL);
    }

    private RequestIdStrategy executor(long maxResultSize, UndecodableResults undecodableResults) {
        return new RequestIdStrategy(
                records, StoreListener.NONE, keys, renewer, scheduling, maxResultSize, undecodableResults);
    }

    private ClaimOutcome claim(String key, String fingerprint, Duration lease) {
        return join(records.claim(key, fingerprint == null ? RequestRecord.NO_FINGERPRINT : fingerprint, lease));
    }

    private String newKey() {
        return keys.requestId("user", "POST /orders", UUID.randomUUID().toString());
    }

    @Test
    void firstClaimAcquiresAndDuplicateSeesItInProgress() {
        String key = newKey();
        assertThat(claim(key, "f".repeat(22), LEASE)).isInstanceOf(ClaimOutcome.Acquired.class);
        assertThat(claim(key, "f".repeat(22), LEASE)).isInstanceOf(ClaimOutcome.InProgress.class);
        assertThat(pttl(key)).isBetween(1L, LEASE.toMillis());
    }

    @Test
    void completedRecordIsReplayedWithItsTtl() {
        String key = newKey();
        Claim claim = acquire(key, "f".repeat(22));
        assertThat(join(records.complete(claim, bytes("result"), TTL))).isTrue();
        ClaimOutcome duplicate = claim(key, "f".repeat(22), LEASE);
        assertThat(duplicate)
                .isInstanceOfSatisfying(
                        ClaimOutcome.Replay.class,
                        replay -> assertThat(replay.result()).isEqualTo(bytes("result")));
        assertThat(pttl(key)).isGreaterThan(LEASE.toMillis()).isLessThanOrEqualTo(TTL.toMillis());
    }

    @Test
    void differentFingerprintIsAMismatchButNoFingerprintIsNot() {
        String key = newKey();
        join(records.complete(acquire(key, "a".repeat(22)), bytes("r"), TTL));
        assertThat(claim(key, "b".repeat(22), LEASE)).isInstanceOf(ClaimOutcome.Mismatch.class);
        assertThat(claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.Replay.class);
    }

    @Test
    void releasedClaimCanBeClaimedAgain() {
        String key = newKey();
        assertThat(join(records.release(acquire(key, null)))).isTrue();
        assertThat(exists(key)).isFalse();
        assertThat(claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.Acquired.class);
    }

    @Test
    void renewExtendsTheLease() {
        String key = newKey();
        Claim claim = acquire(key, null);
        assertThat(join(records.renew(claim, Duration.ofMinutes(10)))).isTrue();
        assertThat(pttl(key)).isGreaterThan(LEASE.toMillis());
    }

    @Test
    void staleOwnerCannotCompleteRenewOrReleaseAnotherOwnersClaim() {
        String key = newKey();
        Claim stale = acquire(key, null);
        delete(key); // the stale owner's lease ran out
        Claim current = acquire(key, null);
        assertThat(join(records.complete(stale, bytes("stale"), TTL))).isFalse();
        assertThat(join(records.renew(stale, TTL))).isFalse();
        assertThat(join(records.release(stale))).isFalse();
        assertThat(claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.InProgress.class);
        assertThat(join(records.complete(current, bytes("current"), TTL))).isTrue();
        assertThat(join(records.complete(current, bytes("again"), TTL)))
                .as("completed records are final")
                .isFalse();
        assertThat(((ClaimOutcome.Replay) claim(key, null, LEASE)).result()).isEqualTo(bytes("current"));
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

    /** After a deploy changed the result's type: the duplicate fails, never runs the work again, unless allowed. */
    @Test
    void aStoredResultThatCannotBeDecodedFailsTheDuplicateOrRunsAgainWhenAllowed() {
        RequestIdCall call = call(newKey(), Duration.ZERO);
        AtomicInteger runs = new AtomicInteger();
        executor.execute(call, () -> "run-" + runs.incrementAndGet(), ResultCodec.utf8());
        ResultCodec<Integer> changedType = new ResultCodec<>() {
            @Override
            public byte[] encode(Integer result) {
                return bytes(result.toString());
            }

            @Override
            public Integer decode(byte[] stored) {
                return Integer.valueOf(new String(stored, StandardCharsets.UTF_8));
            }
        };
        assertThatThrownBy(() -> executor.execute(call, runs::incrementAndGet, changedType))
                .isInstanceOf(UndecodableResultException.class);
        assertThatThrownBy(() -> executor.execute(call, runs::incrementAndGet, changedType))
                .as("the record stays: every duplicate is told")
                .isInstanceOf(UndecodableResultException.class);
        assertThat(runs).hasValue(1);

        RequestIdStrategy rerunning = executor(Long.MAX_VALUE, UndecodableResults.RERUN);
        assertThat(rerunning.execute(call, () -> 42, changedType)).isEqualTo(42);
        assertThat(rerunning.execute(call, () -> 43, changedType)).isEqualTo(42);
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
    void resultThatCannotBeEncodedIsReturnedAndItsKeyCompletedWithoutIt() {
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
        AtomicInteger runs = new AtomicInteger();
        assertThat(executor.execute(
                        call,
                        () -> {
                            runs.incrementAndGet();
                            return "ran";
                        },
                        failing))
                .isEqualTo("ran");
        assertThatThrownBy(() -> executor.execute(call, () -> "again " + runs.incrementAndGet(), failing))
                .as("the work ran: a duplicate is told its result was not kept")
                .isInstanceOf(ResultNotStoredException.class);
        assertThat(runs).hasValue(1);
    }

    @Test
    void resultAboveTheSizeLimitCompletesTheKeyWithoutItAndDuplicatesDoNotRunAgain() {
        RequestIdStrategy limited = executor(10);
        RequestIdCall call = call(newKey(), Duration.ZERO);
        AtomicInteger runs = new AtomicInteger();
        assertThat(limited.execute(
                        call,
                        () -> {
                            runs.incrementAndGet();
                            return "x".repeat(11);
                        },
                        ResultCodec.utf8()))
                .hasSize(11);
        assertThat(claim(call.recordKey(), null, LEASE)).isInstanceOf(ClaimOutcome.NotKept.class);
        assertThat(pttl(call.recordKey())).isBetween(1L, TTL.toMillis());
        assertThatThrownBy(() -> limited.execute(
                        call,
                        () -> {
                            runs.incrementAndGet();
                            return "x";
                        },
                        ResultCodec.utf8()))
                .isInstanceOf(ResultNotStoredException.class);
        assertThat(runs).hasValue(1);
        RequestIdCall small = call(newKey(), Duration.ZERO);
        assertThat(limited.execute(small, () -> "x".repeat(10), ResultCodec.utf8()))
                .hasSize(10);
        assertThat(claim(small.recordKey(), null, LEASE)).isInstanceOf(ClaimOutcome.Replay.class);
    }

    @Test
    void aWaitingDuplicateWhoseCallerGivesUpStopsWaitingAndClaimsNothing() throws Exception {
        ProtectedCall call = new ProtectedCall(
                "user", "POST /orders", UUID.randomUUID().toString(), null, TTL, LEASE, Duration.ZERO);
        Admission first = executor.admitAsync(call).get(10, TimeUnit.SECONDS);
        CompletableFuture<Admission> waiting = executor.admitAsync(new ProtectedCall(
                call.scope(), call.operation(), call.key(), null, TTL, LEASE, Duration.ofSeconds(30)));
        assertThat(waiting).isNotDone();
        waiting.cancel(false);
        ((Admission.Proceed) first).permit().fail().get(10, TimeUnit.SECONDS);
        // Had the waiter gone on, it would hold the key now (it polls every 200 ms at most) and this would be 409.
        Admission next = executor.admitAsync(call).get(10, TimeUnit.SECONDS);
        assertThat(next).isInstanceOf(Admission.Proceed.class);
        ((Admission.Proceed) next).permit().fail().get(10, TimeUnit.SECONDS);
    }

    @Test
    void leaseIsNoLongerHeldOnceTheWorkIsSettled() {
        RequestIdCall call = call(newKey(), Duration.ZERO);
        AtomicReference<IdempotencyContext> seen = new AtomicReference<>();
        executor.execute(
                call,
                () -> {
                    seen.set(IdempotencyContext.current().orElseThrow());
                    assertThat(seen.get().isLeaseHeld()).isTrue();
                    return "done";
                },
                ResultCodec.utf8());
        assertThat(seen.get().isLeaseHeld()).isFalse();
        assertThat(seen.get().remaining()).isZero();
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
                    Await.latch(finish, "finish");
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
    void leaseIsRenewedWhileTheWorkRunsAndTheWorkSeesItHeld() {
        Duration shortLease = Duration.ofMillis(1500);
        String key = newKey();
        String result = executor.execute(
                new RequestIdCall(key, null, TTL, shortLease, Duration.ZERO),
                () -> {
                    IdempotencyContext context = IdempotencyContext.current().orElseThrow();
                    assertThat(context.strategy()).isEqualTo(Strategy.REQUEST_ID);
                    assertThat(context.fencingToken()).isEmpty();
                    for (int i = 0; i < 9; i++) {
                        sleep(500); // three leases in all
                        assertThat(claim(key, null, shortLease))
                                .as("the claim outlives its lease while the work runs")
                                .isInstanceOf(ClaimOutcome.InProgress.class);
                        assertThat(context.isLeaseHeld()).isTrue();
                        assertThat(context.remaining()).isPositive().isLessThanOrEqualTo(shortLease);
                    }
                    return "slow";
                },
                ResultCodec.utf8());
        assertThat(result).isEqualTo("slow");
        assertThat(IdempotencyContext.current())
                .as("bound only while the work runs")
                .isEmpty();
        assertThat(claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.Replay.class);
    }

    @Test
    void workLearnsThatItsClaimWasTakenOver() {
        String key = newKey();
        Duration shortLease = Duration.ofMillis(900);
        boolean heldAfterTakeover = executor.execute(
                new RequestIdCall(key, null, TTL, shortLease, Duration.ZERO),
                () -> {
                    IdempotencyContext context = IdempotencyContext.current().orElseThrow();
                    set(key, RequestRecord.inProgress("x".repeat(22), RequestRecord.NO_FINGERPRINT));
                    // the next renewal finds another owner; wait for it, bounded
                    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                    while (context.isLeaseHeld() && System.nanoTime() < deadline) {
                        sleep(20);
                    }
                    return context.isLeaseHeld();
                },
                booleans());
        assertThat(heldAfterTakeover).isFalse();
        assertThat(claim(key, null, LEASE))
                .as("the completion did not overwrite the new owner's claim")
                .isInstanceOf(ClaimOutcome.InProgress.class);
    }

    @Test
    void completionStoresTheResultEvenWhenTheRecordIsGone() {
        String key = newKey();
        Claim claim = acquire(key, null);
        delete(key); // Redis restarted empty, or the lease ran out, while the work finished
        assertThat(join(records.complete(claim, bytes("done"), TTL))).isTrue();
        assertThat(claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.Replay.class);
    }

    @Test
    void asynchronousAdmissionClaimsWithoutBlockingAndDuplicatesReplay() throws Exception {
        ProtectedCall call = new ProtectedCall(
                "user", "POST /orders", UUID.randomUUID().toString(), null, TTL, LEASE, Duration.ZERO);
        Admission first = executor.admitAsync(call).get(10, TimeUnit.SECONDS);
        assertThat(first).isInstanceOf(Admission.Proceed.class);
        assertThatThrownBy(() -> join(executor.admitAsync(call))).isInstanceOf(RequestInProgressException.class);
        ((Admission.Proceed) first).permit().succeed(bytes("async")).get(10, TimeUnit.SECONDS);
        assertThat(executor.admitAsync(call).get(10, TimeUnit.SECONDS))
                .isInstanceOfSatisfying(
                        Admission.Replay.class,
                        replay -> assertThat(replay.result()).isEqualTo(bytes("async")));
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
        ClaimOutcome outcome = claim(key, fingerprint, LEASE);
        assertThat(outcome).isInstanceOf(ClaimOutcome.Acquired.class);
        return ((ClaimOutcome.Acquired) outcome).claim();
    }

    private static ResultCodec<Boolean> booleans() {
        return new ResultCodec<>() {
            @Override
            public byte[] encode(Boolean result) {
                return bytes(result.toString());
            }

            @Override
            public Boolean decode(byte[] stored) {
                return Boolean.valueOf(new String(stored, StandardCharsets.UTF_8));
            }
        };
    }

    private static RequestIdCall call(String key, Duration wait) {
        return new RequestIdCall(key, null, TTL, LEASE, wait);
    }

    static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
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

package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.IdempotencyStrategy;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Scenario 4e: Redis executes the claim or the lock's acquisition at once, but its reply reaches the client only after
 * the lease has run out (held in the fault proxy; the client's command timeout is longer than that), and meanwhile
 * another instance took the key. The late permit must not start its work, on the blocking admission (Spring MVC, bean
 * methods, Kafka) and on the non-blocking one (the reactive flows).
 */
@ReliabilityTest
class DelayedReplyTests {

    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration DEADLINE = Duration.ofSeconds(15);

    private final String prefix = "delayed-reply:" + UUID.randomUUID() + ":";

    @Test
    @Scenario(
            id = "4e",
            title = "Reply to the REQUEST_ID claim and to the LOCK acquire held back past the 1 s lease (command"
                    + " timeout 20 s), while another instance takes the key",
            expected = "the late caller gets 503 and its work does not run; the other instance ran once (REQUEST_ID:"
                    + " the late caller's retry gets its replay; LOCK: never two holders at once)")
    void aPermitWhoseReplyCameAfterItsLeaseDoesNotRun(RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        AtomicInteger lateRuns = new AtomicInteger();
        AtomicInteger otherRuns = new AtomicInteger();
        try (Instances two = Instances.start(redis, prefix)) {
            String recordKey = two.late.keys.requestId("", "op", "order-1");
            String first =
                    two.claimHeldPastTheLease(recordKey, () -> execute(two.late, recordKey, lateRuns), otherRuns);
            String retry = execute(two.late, recordKey, lateRuns);
            LateLock locked = two.lockHeldPastTheLease("stock-1", () -> callLocked(two.late, "stock-1", lateRuns));

            ReliabilityReport.measured(
                    "4e",
                    "REQUEST_ID: late caller " + first + ", the other instance ran " + otherRuns.get()
                            + ", the late caller's retry got " + retry + "; LOCK: late caller " + locked.late()
                            + " while the other instance held the lock (still held after: " + locked.otherStillHeld()
                            + "); the late caller's work ran " + lateRuns.get() + " times");
            assertThat(first).as("REQUEST_ID: the late claim's caller").isEqualTo("503");
            assertThat(retry).as("REQUEST_ID: its retry").isEqualTo("replay");
            assertThat(locked.late()).as("LOCK: the late acquisition's caller").isEqualTo("503");
            assertThat(locked.otherStillHeld())
                    .as("LOCK: the other holder's lock")
                    .isTrue();
            assertThat(lateRuns).as("the late callers' work").hasValue(0);
            assertThat(otherRuns).as("the other instance's work").hasValue(1);
        }
    }

    @Test
    @Scenario(
            id = "4f",
            title = "The same held-back replies on the non-blocking admission (WebFlux, Spring MVC's reactive and"
                    + " bean reactive types): a REQUEST_ID claim and a LOCK acquisition",
            expected = "the late admission fails as store unavailable (503) and gives the key back; the other"
                    + " instance keeps it")
    void anAsynchronousAdmissionWhoseReplyCameAfterItsLeaseIsRefused(RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        AtomicInteger otherRuns = new AtomicInteger();
        try (Instances two = Instances.start(redis, prefix)) {
            String recordKey = two.late.keys.requestId("", "op", "order-async");
            String claimed =
                    two.claimHeldPastTheLease(recordKey, () -> admitAsync(two.late.executor, "order-async"), otherRuns);
            String retry = execute(two.late, recordKey, new AtomicInteger());
            LateLock locked = two.lockHeldPastTheLease("stock-async", () -> admitAsync(two.late.locks, "stock-async"));

            ReliabilityReport.measured(
                    "4f",
                    "REQUEST_ID: late admission " + claimed + ", the other instance ran " + otherRuns.get()
                            + ", a retry got " + retry + "; LOCK: late admission " + locked.late()
                            + " while the other instance held the lock (still held after: " + locked.otherStillHeld()
                            + ")");
            assertThat(claimed).as("REQUEST_ID: the late asynchronous claim").isEqualTo("503");
            assertThat(otherRuns).as("the other instance's work").hasValue(1);
            assertThat(retry).as("REQUEST_ID: a retry").isEqualTo("replay");
            assertThat(locked.late())
                    .as("LOCK: the late asynchronous acquisition")
                    .isEqualTo("503");
            assertThat(locked.otherStillHeld())
                    .as("LOCK: the other holder's lock")
                    .isTrue();
        }
    }

    /** The late caller's outcome, and whether the other instance still held the lock after it. */
    private record LateLock(String late, boolean otherStillHeld) {}

    /**
     * Two instances on one Redis: {@code late} behind a fault proxy that can hold its replies back, {@code other}
     * straight on Redis, and the harness's own connection.
     */
    private record Instances(FaultProxy proxy, CoreStack late, CoreStack other, RedisAdmin admin)
            implements AutoCloseable {

        /**
         * Connects both, and loads the late stack's scripts while replies still flow: with replies held, the
         * connection's handshake or a script's first load would wait too, and the claim would never reach Redis.
         */
        static Instances start(RedisServer redis, String prefix) {
            FaultProxy proxy = FaultProxy.start(redis.host(), redis.port());
            Instances two = new Instances(
                    proxy,
                    CoreStack.connect(proxy.host(), proxy.port(), COMMAND_TIMEOUT, prefix),
                    CoreStack.connect(redis.host(), redis.port(), COMMAND_TIMEOUT, prefix),
                    new RedisAdmin(redis.host(), redis.port()));
            execute(two.late, two.late.keys.requestId("", "op", "warm-up"), new AtomicInteger());
            two.late.locks.acquire("warm-up", LEASE, Duration.ZERO).close();
            return two;
        }

        /** {@code call} claims {@code recordKey} late, while the other instance runs it ({@code otherRuns}). */
        String claimHeldPastTheLease(String recordKey, Supplier<String> call, AtomicInteger otherRuns)
                throws Exception {
            return heldPastTheLease(
                    recordKey,
                    call,
                    () -> assertThat(execute(other, recordKey, otherRuns)).isEqualTo("ran"));
        }

        /** {@code call} locks {@code resource} late, while the other instance takes the lock and holds it. */
        LateLock lockHeldPastTheLease(String resource, Supplier<String> call) throws Exception {
            LockHandle[] otherHolder = new LockHandle[1];
            String lockKey = late.keys.lock(resource);
            String outcome = heldPastTheLease(
                    lockKey, call, () -> otherHolder[0] = other.locks.acquire(resource, LEASE, Duration.ZERO));
            boolean stillHeld = !otherHolder[0].isLost() && admin.exists(lockKey);
            otherHolder[0].close();
            return new LateLock(outcome, stillHeld);
        }

        /**
         * Starts {@code call} with its replies held, waits until Redis executed its command and the lease ran out
         * there, lets {@code meanwhile} take the key, then lets the reply through: the call's outcome.
         */
        private String heldPastTheLease(String key, Supplier<String> call, Runnable meanwhile) throws Exception {
            proxy.holdReplies(true);
            CompletableFuture<String> outcome;
            try {
                outcome = CompletableFuture.supplyAsync(call);
                assertThat(Race.await(DEADLINE, 10, () -> admin.exists(key)))
                        .as("Redis executed the command")
                        .isTrue();
                assertThat(Race.await(DEADLINE, 10, () -> !admin.exists(key)))
                        .as("the lease ran out in Redis")
                        .isTrue();
                meanwhile.run();
            } finally {
                proxy.holdReplies(false);
            }
            return outcome.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            admin.close();
            other.close();
            late.close();
            proxy.close();
        }
    }

    private static String execute(CoreStack stack, String recordKey, AtomicInteger runs) {
        int before = runs.get();
        try {
            stack.executor.execute(
                    new RequestIdCall(recordKey, null, Duration.ofHours(1), LEASE, Duration.ZERO),
                    () -> "result-" + runs.incrementAndGet(),
                    ResultCodec.utf8());
            return runs.get() > before ? "ran" : "replay";
        } catch (IdempotencyStoreUnavailableException ex) {
            return "503";
        }
    }

    /**
     * Admits {@code key} the non-blocking way, as the reactive flows do: {@code 503} when refused as store unavailable,
     * {@code permit} when granted (the permit is then given back: this test runs no work).
     */
    private static String admitAsync(IdempotencyStrategy strategy, String key) {
        ProtectedCall call = new ProtectedCall("", "op", key, null, Duration.ofHours(1), LEASE, Duration.ZERO);
        try {
            StrategyRunner.Admitted<byte[]> admitted = StrategyRunner.admitAsync(
                            () -> strategy.admitAsync(call), bytes -> bytes)
                    .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            if (admitted.isReplay()) {
                return "replay";
            }
            Futures.join(admitted.permit().fail());
            return "permit";
        } catch (ExecutionException ex) {
            return ex.getCause() instanceof IdempotencyStoreUnavailableException
                    ? "503"
                    : ex.getCause().toString();
        } catch (InterruptedException | TimeoutException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static String callLocked(CoreStack stack, String resource, AtomicInteger runs) {
        try {
            return stack.locks.callLocked(resource, LEASE, Duration.ZERO, () -> "ran " + runs.incrementAndGet());
        } catch (IdempotencyStoreUnavailableException ex) {
            return "503";
        }
    }
}

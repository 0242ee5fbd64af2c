package dev.idempotency.internal.requestid;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.ResultNotStoredException;
import dev.idempotency.Strategy;
import dev.idempotency.UndecodableResultException;
import dev.idempotency.internal.Durations;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.requestid.UndecodableResults;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.spi.StoreListener;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.Assert;

/**
 * The {@code REQUEST_ID} strategy over a {@link RequestIdStore} (Redis or a database): the first caller claims the
 * key, runs the work and stores its result; duplicates get the stored result without running it, or poll, without
 * blocking a thread, while the original runs.
 */
public final class RequestIdStrategy implements RequestIdExecutor {

    private static final Logger log = LoggerFactory.getLogger(RequestIdStrategy.class);
    private static final Duration FIRST_POLL = Duration.ofMillis(5);
    private static final Duration MAX_POLL = Duration.ofMillis(200);

    private final RequestIdStore store;
    private final StoreListener listener;
    private final RedisKeys keys;
    private final LeaseRenewer renewer;
    private final Scheduling scheduling;
    private final long maxResultSize;
    private final UndecodableResults undecodableResults;

    /**
     * @param store where the records live
     * @param listener told about every lost lease and every result not stored
     * @param keys how record keys are built
     * @param maxResultSize largest encoded result stored, in bytes; a larger result is handed to its caller but not
     *     stored, which keeps the store bounded: the key is completed without it, and duplicates get a
     *     {@link ResultNotStoredException} instead of a second execution
     * @param undecodableResults what a duplicate gets when the stored result cannot be decoded
     */
    public RequestIdStrategy(
            RequestIdStore store,
            StoreListener listener,
            RedisKeys keys,
            LeaseRenewer renewer,
            Scheduling scheduling,
            long maxResultSize,
            UndecodableResults undecodableResults) {
        Assert.notNull(store, "store must not be null");
        Assert.notNull(keys, "keys must not be null");
        Assert.isTrue(maxResultSize > 0, "maxResultSize must be positive");
        this.store = store;
        this.listener = listener;
        this.keys = keys;
        this.renewer = renewer;
        this.scheduling = scheduling;
        this.maxResultSize = maxResultSize;
        this.undecodableResults = undecodableResults;
    }

    @Override
    public Strategy strategy() {
        return Strategy.REQUEST_ID;
    }

    @Override
    public <T, E extends Throwable> T execute(RequestIdCall call, CheckedSupplier<T, E> work, ResultCodec<T> codec)
            throws E {
        return StrategyRunner.run(
                () -> Futures.join(admit(
                        call.recordKey(),
                        call.fingerprint(),
                        call.ttl(),
                        call.lease(),
                        call.maxWait(),
                        () -> false,
                        true)),
                work,
                codec);
    }

    /**
     * Claims without blocking. Cancelling the returned future stops a wait for a running duplicate; a claim won after
     * that is released at once.
     */
    @Override
    public CompletableFuture<Admission> admitAsync(ProtectedCall call) {
        return admit(call, false);
    }

    /** Claims on the calling thread where the store can: it waits anyway. */
    @Override
    public Admission admit(ProtectedCall call) {
        return Futures.join(admit(call, true));
    }

    private CompletableFuture<Admission> admit(ProtectedCall call, boolean callerWaits) {
        CompletableFuture<Admission> admission = new CompletableFuture<>();
        return Futures.handOver(
                admit(
                        keys.requestId(call.scope(), call.operation(), call.key()),
                        call.fingerprint(),
                        call.ttl(),
                        call.lease(),
                        call.maxWait(),
                        admission::isDone,
                        callerWaits),
                admission,
                unclaimed -> {
                    if (unclaimed instanceof Admission.Proceed proceed) {
                        proceed.permit().fail();
                    }
                });
    }

    private CompletableFuture<Admission> admit(
            String recordKey,
            @Nullable String fingerprint,
            Duration ttl,
            Duration lease,
            Duration wait,
            BooleanSupplier gaveUp,
            boolean callerWaits) {
        Assert.isTrue(Durations.isPositive(lease), "lease must be positive");
        String print = fingerprint == null ? RequestRecord.NO_FINGERPRINT : fingerprint;
        Attempts attempts = new Attempts(recordKey, print, ttl, lease, System.nanoTime() + wait.toNanos(), gaveUp);
        return attempt(attempts, FIRST_POLL, callerWaits);
    }

    /** What every claim attempt of one admission shares. */
    private record Attempts(
            String recordKey, String print, Duration ttl, Duration lease, long deadline, BooleanSupplier gaveUp) {}

    /**
     * One claim; a duplicate that meets a running original polls again, without blocking, until the deadline or until
     * its caller gives up.
     */
    private CompletableFuture<Admission> attempt(Attempts attempts, Duration poll, boolean onCallersThread) {
        String recordKey = attempts.recordKey();
        Duration ttl = attempts.ttl();
        Duration lease = attempts.lease();
        long deadline = attempts.deadline();
        if (attempts.gaveUp().getAsBoolean()) {
            return CompletableFuture.failedFuture(new CancellationException("The caller stopped waiting"));
        }
        // A caller that waits for the claim on its own thread may settle there too: the permit knows that thread.
        Thread waiting = onCallersThread ? Thread.currentThread() : null;
        RequestIdStore here = onCallersThread ? store.onWaitingThread() : store;
        return here.claim(recordKey, attempts.print(), lease).thenCompose(outcome -> {
            if (outcome instanceof ClaimOutcome.Acquired acquired) {
                return CompletableFuture.completedFuture(new Admission.Proceed(new ClaimPermit(
                        store, acquired.claim(), waiting, ttl, lease, renewer, scheduling, maxResultSize, listener)));
            }
            if (outcome instanceof ClaimOutcome.Replay replay) {
                return CompletableFuture.completedFuture(
                        new Admission.Replay(replay.result(), () -> undecodable(recordKey, replay.value())));
            }
            if (outcome instanceof ClaimOutcome.NotKept) {
                return CompletableFuture.failedFuture(new ResultNotStoredException(
                        "The request with this idempotency key ran, but its result was not kept (too large to keep, or lost"
                                + " when the service stopped before storing it)"));
            }
            if (outcome instanceof ClaimOutcome.Mismatch) {
                return CompletableFuture.failedFuture(
                        new PayloadMismatchException("The idempotency key was used with a different payload"));
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return CompletableFuture.failedFuture(new RequestInProgressException(
                        "A request with this idempotency key is still in progress", IN_PROGRESS_RETRY_AFTER));
            }
            Duration pause = poll.toNanos() < remaining ? poll : Duration.ofNanos(remaining);
            Duration next = poll.multipliedBy(2).compareTo(MAX_POLL) > 0 ? MAX_POLL : poll.multipliedBy(2);
            // a poll runs on the timer's thread, which must not block
            return scheduling.delay(pause).thenCompose(elapsed -> attempt(attempts, next, false));
        });
    }

    /**
     * A stored result that cannot be decoded: by default the duplicate fails, as the work must not run twice; with
     * {@link UndecodableResults#RERUN} the result is discarded so that the next admission runs the work again.
     */
    private CompletableFuture<Void> undecodable(String recordKey, byte[] value) {
        listener.onUndecodableResult();
        if (undecodableResults == UndecodableResults.FAIL) {
            log.error(
                    "The stored result of {} cannot be decoded (did its type change?); the work ran once and is not"
                            + " run again. Delete the record to run it again, or allow re-running with"
                            + " idempotency.request-id.undecodable-results: rerun",
                    recordKey);
            return CompletableFuture.failedFuture(new UndecodableResultException(
                    "This request ran, but its stored result cannot be read by this version of the service"));
        }
        log.error("The stored result of {} cannot be decoded; discarding it, so the work runs again", recordKey);
        return store.discard(recordKey, value).thenApply(discarded -> null);
    }
}

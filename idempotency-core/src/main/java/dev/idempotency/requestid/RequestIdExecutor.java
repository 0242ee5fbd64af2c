package dev.idempotency.requestid;

import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.support.CheckedSupplier;
import dev.idempotency.support.LeaseRenewer;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.Assert;

/**
 * Runs work once per key: the first caller claims the key, runs the work and stores its result; duplicates get the
 * stored result without running it. Usable without annotations, e.g. in a message listener.
 *
 * <pre>{@code
 * Receipt receipt = executor.execute(call, () -> payments.charge(order), receiptCodec);
 * }</pre>
 */
public final class RequestIdExecutor {

    private static final Logger log = LoggerFactory.getLogger(RequestIdExecutor.class);

    /** Suggested {@code Retry-After} for a duplicate that meets a running original. */
    public static final Duration IN_PROGRESS_RETRY_AFTER = Duration.ofSeconds(1);

    private static final long FIRST_POLL_MILLIS = 5;
    private static final long MAX_POLL_MILLIS = 200;

    private final RequestIdStore store;
    private final LeaseRenewer renewer;
    private final long maxResultSize;

    /** An executor that stores results of any size. */
    public RequestIdExecutor(RequestIdStore store, LeaseRenewer renewer) {
        this(store, renewer, Long.MAX_VALUE);
    }

    /**
     * @param maxResultSize largest encoded result stored, in bytes; a larger result is handed to its caller but not
     *     stored (its claim is released, so a retry runs the work again), which keeps Redis memory bounded
     */
    public RequestIdExecutor(RequestIdStore store, LeaseRenewer renewer, long maxResultSize) {
        Assert.notNull(store, "store must not be null");
        Assert.notNull(renewer, "renewer must not be null");
        Assert.isTrue(maxResultSize > 0, "maxResultSize must be positive");
        this.store = store;
        this.renewer = renewer;
        this.maxResultSize = maxResultSize;
    }

    /**
     * Runs {@code work} if this is the first call with the call's key, else returns the stored result.
     *
     * @throws RequestInProgressException when another call with the key is still running after {@code wait}
     * @throws PayloadMismatchException when the key was used with a different payload
     * @throws dev.idempotency.IdempotencyStoreUnavailableException when Redis fails before the work runs
     * @throws E whatever the work throws; the claim is released first so that a retry runs it again
     */
    public <T, E extends Throwable> T execute(RequestIdCall call, CheckedSupplier<T, E> work, ResultCodec<T> codec)
            throws E {
        long deadline = System.nanoTime() + call.maxWait().toNanos();
        long pollMillis = FIRST_POLL_MILLIS;
        while (true) {
            ClaimOutcome outcome = store.claim(call.recordKey(), call.fingerprint(), call.lease());
            if (outcome instanceof ClaimOutcome.Acquired acquired) {
                return runClaimed(call, acquired.claim(), work, codec);
            }
            if (outcome instanceof ClaimOutcome.Replay replay) {
                return codec.decode(replay.result());
            }
            if (outcome instanceof ClaimOutcome.Mismatch) {
                throw new PayloadMismatchException("The idempotency key was used with a different payload");
            }
            long remainingMillis = (deadline - System.nanoTime()) / 1_000_000;
            if (remainingMillis <= 0) {
                throw new RequestInProgressException(
                        "A request with this idempotency key is still in progress", IN_PROGRESS_RETRY_AFTER);
            }
            sleep(Math.min(pollMillis, remainingMillis));
            pollMillis = Math.min(pollMillis * 2, MAX_POLL_MILLIS);
        }
    }

    private <T, E extends Throwable> T runClaimed(
            RequestIdCall call, Claim claim, CheckedSupplier<T, E> work, ResultCodec<T> codec) throws E {
        LeaseRenewer.Registration renewal = renewer.schedule(
                call.lease(),
                () -> store.renew(claim, call.lease()),
                () -> log.warn("Claim {} expired while its work was still running", claim.recordKey()));
        T result;
        try {
            result = work.get();
        } catch (Throwable failure) {
            renewal.cancel();
            releaseQuietly(claim, failure);
            throw failure;
        }
        renewal.cancel();
        byte[] encoded = encodeQuietly(claim, codec, result);
        if (encoded != null && encoded.length <= maxResultSize) {
            completeQuietly(call, claim, encoded);
        } else {
            if (encoded != null) {
                log.warn(
                        "Result for {} is {} bytes, above the {} byte limit; returned but not stored",
                        claim.recordKey(),
                        encoded.length,
                        maxResultSize);
            }
            releaseQuietly(claim, null);
        }
        return result;
    }

    /** The stored form of the result, or {@code null} when it is not to be (or cannot be) stored. */
    private static <T> byte @Nullable [] encodeQuietly(Claim claim, ResultCodec<T> codec, T result) {
        try {
            return codec.shouldStore(result) ? codec.encode(result) : null;
        } catch (RuntimeException ex) {
            // The work has run: its caller must get the result; a retry runs it again since nothing is stored.
            log.error("Could not encode the result of {} for storage; not stored", claim.recordKey(), ex);
            return null;
        }
    }

    /** The work has run: its caller gets the result even when it cannot be stored. */
    private void completeQuietly(RequestIdCall call, Claim claim, byte[] encoded) {
        try {
            if (!store.complete(claim, encoded, call.ttl())) {
                log.warn("Claim {} was lost before its result was stored; a retry may run again", claim.recordKey());
            }
        } catch (RuntimeException ex) {
            log.error(
                    "Could not store the result of {}; the claim expires with its lease: {}",
                    claim.recordKey(),
                    ex.getMessage());
        }
    }

    private void releaseQuietly(Claim claim, @Nullable Throwable cause) {
        try {
            store.release(claim);
        } catch (RuntimeException ex) {
            // The claim expires with its lease; the caller must see the original failure, not this one.
            if (cause != null) {
                cause.addSuppressed(ex);
            }
            log.warn("Could not release claim {}; it expires with its lease: {}", claim.recordKey(), ex.getMessage());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new RequestInProgressException(
                    "Interrupted while waiting for a request in progress", IN_PROGRESS_RETRY_AFTER);
        }
    }
}

package dev.idempotency.spi;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.IdempotencyContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The right to run one call's work, held from admission until the work ends. The claim or lock behind it is renewed
 * while it is held. Settle it exactly once: {@link #succeed} or {@link #fail}.
 *
 * <p>The futures never complete exceptionally: the work has run by the time a permit is settled, so a Redis failure
 * then is logged, reported to the {@link StoreListener} and, where it helps, retried; the claim or lock then ends with
 * its lease.
 */
public interface Permit {

    /** What the running work may ask about its protection; see {@link IdempotencyContext#current()}. */
    IdempotencyContext context();

    /**
     * Runs the part of the work that runs on this thread with {@link #context()} bound to it, so that the work sees it
     * as {@link IdempotencyContext#current()} and a protected call nested in it knows its outer call (a lock is
     * re-entered only by a call nested in the call that holds it); the outer binding is restored afterwards.
     */
    default <T, E extends Throwable> T callWithin(CheckedSupplier<T, E> work) throws E {
        return ContextHolder.callWith(context(), work);
    }

    /**
     * The work succeeded. {@code REQUEST_ID} stores {@code result} for duplicates (when it is {@code null}, nothing
     * worth storing, it releases the claim so that a retry runs again; when it is larger than the size limit, see
     * {@link #succeedWithoutResult()}); {@code LOCK} releases the lock; {@code TOKEN} keeps the token used.
     */
    CompletableFuture<Void> succeed(byte @Nullable [] result);

    /**
     * The work succeeded, but its result cannot be kept (larger than the size limit, or streamed to its caller as it
     * was made). {@code REQUEST_ID} completes the key without a result, so that duplicates get a
     * {@link dev.idempotency.ResultNotStoredException} instead of a second execution; {@code LOCK} releases the lock;
     * {@code TOKEN} keeps the token used.
     */
    default CompletableFuture<Void> succeedWithoutResult() {
        return succeed(null);
    }

    /**
     * The caller went away (disconnected, cancelled, or met the server's async timeout) while the work runs on: the
     * claim or lock is still renewed, for at most {@code bound} from now. Past that the renewal stops and the claim or
     * lock expires with its lease, so that work which never ends cannot hold a key for ever. Settle as usual when the
     * work ends.
     */
    default void detach(Duration bound) {}

    /** The work failed: the claim is released, the token restored or the lock released, so a retry can run. */
    CompletableFuture<Void> fail();
}

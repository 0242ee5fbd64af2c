package dev.idempotency.spi;

import dev.idempotency.Strategy;
import java.util.concurrent.CompletableFuture;

/**
 * One way of making a call take effect once. A call is admitted first (a key claimed, a token consumed, a lock
 * acquired); the caller then either gets a stored result back ({@link Admission.Replay}) or runs the work and settles
 * the {@link Permit} it was given when the work ends. Rejections (in progress, busy, used token, Redis down) complete
 * the admission exceptionally with an {@link dev.idempotency.IdempotencyException}.
 *
 * <p>{@link #admitAsync} never blocks: it completes when Redis answers, so reactive and asynchronous callers can use it
 * from any thread. {@link #admit} is its blocking form, for work that runs on the caller's thread.
 */
public interface IdempotencyStrategy {

    /** Which strategy this is. */
    Strategy strategy();

    /**
     * Admits one call without blocking. A caller that gives up (a client gone) cancels the returned future: a wait
     * then ends, and a permit granted anyway must be settled as failed by the strategy itself, since nobody will run
     * its work or settle it.
     */
    CompletableFuture<Admission> admitAsync(ProtectedCall call);

    /**
     * Admits one call whose work will run on the calling thread; blocks until Redis answered (and, with a wait, until
     * the wait ended).
     *
     * @throws dev.idempotency.IdempotencyException when the call is rejected
     */
    default Admission admit(ProtectedCall call) {
        return Futures.join(admitAsync(call));
    }
}

package dev.idempotency.lock;

import dev.idempotency.LockLostException;

/**
 * A held lease lock. Close it to release; closing throws {@link LockLostException} when the lease ran out (or was taken
 * over) while it was held, so the holder learns its work may have overlapped another's.
 */
public interface LockHandle extends AutoCloseable {

    /**
     * A number that strictly increases with every acquisition of this resource's lock. Pass it to the system the lock
     * protects so that it can reject writes from a holder whose lease ran out (a stale, lower token).
     */
    long fencingToken();

    /** The resource key this lock protects, as given by the caller. */
    String resource();

    /** Whether the lease was found lost (not renewed in time, or taken over) while this handle was held. */
    boolean isLost();

    /**
     * Releases the lock (or one level of re-entry).
     *
     * @throws LockLostException when the lock expired or was taken over while held
     * @throws dev.idempotency.IdempotencyStoreUnavailableException when the store fails; the lock then expires by
     *     itself
     * @throws IllegalStateException when called by a thread or call that does not hold it
     */
    @Override
    void close();
}

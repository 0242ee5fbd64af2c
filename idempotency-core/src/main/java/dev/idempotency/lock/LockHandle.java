package dev.idempotency.lock;

import dev.idempotency.LockLostException;
import dev.idempotency.spi.Futures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A held lease lock. Close it to release; closing throws {@link LockLostException} when the lease ran out (or was taken
 * over) while it was held, so the holder learns its work may have overlapped another's.
 */
public final class LockHandle implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LockHandle.class);

    private final HeldLock lock;

    LockHandle(HeldLock lock) {
        this.lock = lock;
    }

    /**
     * A number that strictly increases with every acquisition of this resource's lock. Pass it to the system the lock
     * protects so that it can reject writes from a holder whose lease ran out (a stale, lower token).
     */
    public long fencingToken() {
        return lock.fencingToken();
    }

    /** The resource key this lock protects, as given by the caller. */
    public String resource() {
        return lock.resource();
    }

    /** Whether the lease was found lost (not renewed in time, or taken over) while this handle was held. */
    public boolean isLost() {
        return lock.lease().isLost();
    }

    /**
     * Releases the lock (or one level of re-entry).
     *
     * @throws LockLostException when the lock expired or was taken over while held
     * @throws dev.idempotency.IdempotencyStoreUnavailableException when Redis fails; the lock then expires by itself
     */
    @Override
    public void close() {
        if (!lock.isHeldByCurrentCall()) {
            throw new IllegalStateException("A lock can only be released by the thread or call that holds it");
        }
        boolean released = Futures.join(lock.release());
        if (!released || isLost()) {
            log.warn("Lock on {} was lost before its release (fencing token {})", resource(), fencingToken());
            throw new LockLostException(
                    "The lock on " + resource() + " expired while held; fencing token " + fencingToken() + " is stale");
        }
    }

    HeldLock lock() {
        return lock;
    }
}

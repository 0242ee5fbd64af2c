package dev.idempotency.internal.lock;

import dev.idempotency.LockLostException;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.spi.Futures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A held lease lock. Close it to release; closing throws {@link LockLostException} when the lease ran out (or was taken
 * over) while it was held, so the holder learns its work may have overlapped another's.
 */
final class RedisLockHandle implements LockHandle {

    private static final Logger log = LoggerFactory.getLogger(RedisLockHandle.class);

    private final HeldLock lock;

    RedisLockHandle(HeldLock lock) {
        this.lock = lock;
    }

    @Override
    public long fencingToken() {
        return lock.fencingToken();
    }

    @Override
    public String resource() {
        return lock.resource();
    }

    @Override
    public boolean isLost() {
        return lock.lease().isLost();
    }

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

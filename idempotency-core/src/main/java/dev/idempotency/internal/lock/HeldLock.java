package dev.idempotency.internal.lock;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.internal.lease.Lease;
import dev.idempotency.spi.ContextHolder;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.Permit;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One acquisition of a lock, renewed while held. A call nested in the call that holds it (or the thread that holds its
 * handle) may enter it again; the lock is released in the store when the outermost hold ends. As a {@link Permit} it never
 * fails: once the work ran, a
 * lost lock or a failed release is logged and counted, and the lock is left to expire.
 */
final class HeldLock implements Permit {

    private static final Logger log = LoggerFactory.getLogger(HeldLock.class);

    private final LeaseLocks manager;
    private final String resource;
    private final String key;
    private final String owner;
    private final long fencingToken;
    private final @Nullable Thread holder;
    private final RedisLockHandle handle = new RedisLockHandle(this);
    private @Nullable Lease lease;
    private final AtomicInteger holds = new AtomicInteger(1);

    HeldLock(
            LeaseLocks manager, String resource, String key, String owner, long fencingToken, @Nullable Thread holder) {
        this.manager = manager;
        this.resource = resource;
        this.key = key;
        this.owner = owner;
        this.fencingToken = fencingToken;
        this.holder = holder;
    }

    void leased(Lease lease) {
        this.lease = lease;
    }

    @Override
    public IdempotencyContext context() {
        return lease();
    }

    @Override
    public CompletableFuture<Void> succeed(byte @Nullable [] result) {
        return releaseQuietly();
    }

    @Override
    public void detach(Duration bound) {
        lease().renewAtMostFor(bound);
    }

    @Override
    public CompletableFuture<Void> fail() {
        return releaseQuietly();
    }

    /** Leaves one hold; releases in the store when it was the outermost. {@code true} when released as still held. */
    CompletableFuture<Boolean> release() {
        if (holds.decrementAndGet() > 0) {
            return CompletableFuture.completedFuture(true);
        }
        return manager.release(this);
    }

    private CompletableFuture<Void> releaseQuietly() {
        return release().handle((released, failure) -> {
            if (failure != null) {
                log.warn(
                        "Could not release the lock on {}; it expires with its lease: {}",
                        resource,
                        Futures.unwrap(failure).getMessage());
                manager.listener().onLockReleaseFailed();
            } else if (!released) {
                log.warn("Lock on {} was lost before its release (fencing token {})", resource, fencingToken);
            }
            return null;
        });
    }

    /** The public face of this lock for blocking callers. */
    RedisLockHandle handle() {
        return handle;
    }

    void enter() {
        holds.incrementAndGet();
    }

    /** Whether the code running now is inside the call that holds this lock, or on the thread holding its handle. */
    boolean isHeldByCurrentCall() {
        return holder == Thread.currentThread() || (lease != null && ContextHolder.isBound(lease));
    }

    Lease lease() {
        if (lease == null) {
            throw new IllegalStateException("lock not leased yet");
        }
        return lease;
    }

    String resource() {
        return resource;
    }

    String key() {
        return key;
    }

    String owner() {
        return owner;
    }

    long fencingToken() {
        return fencingToken;
    }
}

package dev.idempotency.lock;

import dev.idempotency.support.LeaseRenewer;
import org.jspecify.annotations.Nullable;

/**
 * A held lease lock. Close it to release; closing throws {@link dev.idempotency.LockLostException} when the lease ran
 * out (or was taken over) while it was held, so the holder learns its work may have overlapped another's.
 */
public final class LockHandle implements AutoCloseable {

    private final LeaseLockManager manager;
    private final String resource;
    private final String key;
    private final String owner;
    private final long fencingToken;
    private final Thread holder = Thread.currentThread();
    private int holds = 1;
    private volatile boolean lost;
    private LeaseRenewer.@Nullable Registration renewal;

    LockHandle(LeaseLockManager manager, String resource, String key, String owner, long fencingToken) {
        this.manager = manager;
        this.resource = resource;
        this.key = key;
        this.owner = owner;
        this.fencingToken = fencingToken;
    }

    /**
     * A number that strictly increases with every acquisition of this resource's lock. Pass it to the system the lock
     * protects so that it can reject writes from a holder whose lease ran out (a stale, lower token).
     */
    public long fencingToken() {
        return fencingToken;
    }

    /** The resource key this lock protects, as given by the caller. */
    public String resource() {
        return resource;
    }

    /** Whether the watchdog found the lease gone while this handle was held. */
    public boolean isLost() {
        return lost;
    }

    @Override
    public void close() {
        manager.release(this);
    }

    String key() {
        return key;
    }

    String owner() {
        return owner;
    }

    boolean isHeldBy(Thread thread) {
        return holder == thread;
    }

    /** Re-entry by the holding thread. */
    void enter() {
        holds++;
    }

    /** Leaves one level; {@code true} when this was the outermost and the lock must now be released in Redis. */
    boolean exit() {
        return --holds == 0;
    }

    void markLost() {
        lost = true;
    }

    void renewal(LeaseRenewer.Registration registration) {
        this.renewal = registration;
    }

    void stopRenewal() {
        if (renewal != null) {
            renewal.cancel();
        }
    }
}

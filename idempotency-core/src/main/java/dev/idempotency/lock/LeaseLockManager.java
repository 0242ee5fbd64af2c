package dev.idempotency.lock;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.LockBusyException;
import dev.idempotency.spi.IdempotencyStrategy;
import java.time.Duration;
import java.util.Optional;

/**
 * The {@code LOCK} strategy and its programmatic API: lease locks on resource keys, renewed while held, each with a
 * fencing token that grows with every acquisition. A lock belongs to the call that acquired it, never to a thread: only
 * a call nested in that call (or, for {@link #acquire}, the thread holding the handle) re-enters it without asking the
 * store. Get one from {@link dev.idempotency.redis.RedisIdempotency#locks()}:
 *
 * <pre>{@code
 * Stock stock = locks.callLocked(sku, Duration.ofSeconds(30), Duration.ofSeconds(2), () -> inventory.reserve(sku));
 * }</pre>
 */
public interface LeaseLockManager extends IdempotencyStrategy {

    /**
     * Acquires the lock on {@code resource}, waiting up to {@code wait} for a busy lock. The handle belongs to the
     * calling thread, which may acquire it again (each acquisition is closed once); so may a call nested in a
     * {@link #callLocked} of the same resource.
     *
     * @throws LockBusyException when another holder keeps it past {@code wait}
     * @throws dev.idempotency.IdempotencyStoreUnavailableException when the store fails
     */
    LockHandle acquire(String resource, Duration lease, Duration wait);

    /**
     * Runs {@code work} under the lock on {@code resource}. Once the work ran its result is returned: a lock lost
     * meanwhile, or a release that fails, is logged and counted, and the lock expires with its lease.
     *
     * @throws LockBusyException when another holder keeps it past {@code wait}; the work did not run
     * @throws E whatever the work throws, after the lock is released
     */
    <T, E extends Throwable> T callLocked(String resource, Duration lease, Duration wait, CheckedSupplier<T, E> work)
            throws E;

    /**
     * The lock on {@code resource} held by the current call (the {@link #callLocked} or protected call this code runs
     * in) or by this thread's {@link #acquire}, if any: to read its fencing token deep in a call.
     */
    Optional<LockHandle> heldByCurrentThread(String resource);
}

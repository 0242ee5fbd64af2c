package dev.idempotency.internal.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Where lock records live, beside {@code RequestIdStore} and {@code TokenStore}: Redis ({@link RedisLockStore}) or this
 * JVM's memory ({@link MemoryLockStore}). Each operation is atomic and guarded by the owner; none blocks its caller.
 */
interface LockStore extends AutoCloseable {

    /**
     * Takes the lock for {@code owner}: the new fencing token (> 0, higher than every earlier one of the key) when
     * acquired, else minus the milliseconds the holder's lease has left.
     */
    CompletableFuture<Long> acquire(String key, String owner, Duration lease);

    /** Extends the lease; {@code false} when the lock is no longer {@code owner}'s. */
    CompletableFuture<Boolean> renew(String key, String owner, Duration lease);

    /** Releases the lock and tells waiters; {@code false} when it was no longer {@code owner}'s. */
    CompletableFuture<Boolean> release(String key, String owner);

    /**
     * Has {@code released} told the key of every release from now on; completes once it is, fails (store unavailable)
     * when it cannot be. Called before each wait; the store keeps one feed open and opens it again when it was lost.
     */
    CompletableFuture<?> releases(Consumer<String> released);

    @Override
    void close();
}

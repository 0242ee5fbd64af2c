package dev.idempotency.internal.lock;

import dev.idempotency.internal.memory.Keyspace;
import dev.idempotency.internal.memory.Keyspace.Change;
import dev.idempotency.internal.memory.Keyspace.Value;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Locks in this JVM's memory: each lock a key of a {@link Keyspace} holding its owner, with the lease as its expiry.
 * Fencing tokens come from one counter for every lock that never falls below the clock in microseconds, as the Redis
 * store's do, so they increase per resource and across restarts. Releases wake waiters at once.
 */
final class MemoryLockStore implements LockStore {

    private static final Consumer<String> NOBODY = key -> {};

    private final Keyspace keyspace;
    private final AtomicLong lastFence = new AtomicLong();
    private volatile Consumer<String> released = NOBODY;

    MemoryLockStore(Keyspace keyspace) {
        this.keyspace = keyspace;
    }

    @Override
    public CompletableFuture<Long> acquire(String key, String owner, Duration lease) {
        byte[] holder = owner.getBytes(StandardCharsets.US_ASCII);
        return done(keyspace.change(
                "acquire",
                key,
                live -> live == null
                        ? new Change<>(Value.expiringIn(holder, lease), nextFence())
                        : new Change<>(live, -Math.max(live.millisLeft(), 1))));
    }

    private long nextFence() {
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        return lastFence.updateAndGet(last -> Math.max(last + 1, now));
    }

    @Override
    public CompletableFuture<Boolean> renew(String key, String owner, Duration lease) {
        return done(keyspace.change(
                "renew",
                key,
                live -> isHeldBy(live, owner)
                        ? new Change<>(live.expiringIn(lease), true)
                        : new Change<>(live, false)));
    }

    @Override
    public CompletableFuture<Boolean> release(String key, String owner) {
        boolean releasedNow = keyspace.change(
                "release", key, live -> isHeldBy(live, owner) ? new Change<>(null, true) : new Change<>(live, false));
        if (releasedNow) {
            released.accept(key);
        }
        return done(releasedNow);
    }

    @Override
    public CompletableFuture<?> releases(Consumer<String> released) {
        this.released = released;
        return done(true);
    }

    @Override
    public void close() {
        released = NOBODY;
    }

    private static boolean isHeldBy(@Nullable Value live, String owner) {
        return live != null && Arrays.equals(live.bytes(), owner.getBytes(StandardCharsets.US_ASCII));
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}

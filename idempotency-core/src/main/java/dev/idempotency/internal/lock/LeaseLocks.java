package dev.idempotency.internal.lock;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.LockBusyException;
import dev.idempotency.Strategy;
import dev.idempotency.internal.Durations;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.internal.lease.Owners;
import dev.idempotency.internal.memory.Keyspace;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.redis.ReplicaConfirmations;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.spi.StoreListener;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * The {@code LOCK} strategy over a {@link LockStore} (Redis, or this JVM's memory): lease locks on resource keys with
 * an owner value and a fencing token, watchdog renewal at a third of the lease, compare-and-delete release, and waiters
 * woken by the release itself. A lock belongs to the call that acquired it, never to a thread: only a call nested in
 * that call (or, for {@link #acquire}, the thread holding the handle) re-enters it without asking the store, so a pooled
 * thread that serves the next request while asynchronous work still holds the lock cannot slip in. Usable without
 * annotations:
 *
 * <pre>{@code
 * Stock stock = locks.callLocked(sku, Duration.ofSeconds(30), Duration.ofSeconds(2), () -> inventory.reserve(sku));
 * }</pre>
 */
public final class LeaseLocks implements LeaseLockManager, AutoCloseable {

    /** Waiters re-check at least this often, in case a release message was missed. */
    private static final Duration FALLBACK_POLL = Duration.ofMillis(250);

    private final LockStore store;
    private final RedisKeys keys;
    private final LeaseRenewer renewer;
    private final LockReleaseSignals signals;
    private final StoreListener listener;
    private final ConcurrentHashMap<String, HeldLock> heldLocks = new ConcurrentHashMap<>();

    private LeaseLocks(
            LockStore store, RedisKeys keys, LeaseRenewer renewer, Scheduling scheduling, StoreListener listener) {
        Assert.notNull(keys, "keys must not be null");
        Assert.notNull(renewer, "renewer must not be null");
        this.store = store;
        this.keys = keys;
        this.renewer = renewer;
        this.listener = listener;
        this.signals = new LockReleaseSignals(store, scheduling);
    }

    /**
     * Locks in Redis; {@link dev.idempotency.redis.RedisIdempotency} builds them from a connection factory.
     *
     * @param redis the commands it sends
     * @param keys where its locks live
     * @param renewer renews the leases of held locks
     * @param scheduling the timers of lock waits
     * @param confirmations with wait-for-replicas, where acquisitions wait for replicas; else {@code null}
     */
    public static LeaseLocks inRedis(
            RedisGateway redis,
            RedisKeys keys,
            LeaseRenewer renewer,
            Scheduling scheduling,
            @Nullable ReplicaConfirmations confirmations) {
        Assert.notNull(redis, "redis must not be null");
        RedisLockStore store = new RedisLockStore(redis, keys.lock("") + ":released", confirmations);
        return new LeaseLocks(store, keys, renewer, scheduling, redis.listener());
    }

    /** Locks in this JVM's memory ({@link dev.idempotency.memory.InMemoryIdempotency}): one instance only. */
    public static LeaseLocks inMemory(
            Keyspace keyspace, RedisKeys keys, LeaseRenewer renewer, Scheduling scheduling, StoreListener listener) {
        return new LeaseLocks(new MemoryLockStore(keyspace), keys, renewer, scheduling, listener);
    }

    @Override
    public Strategy strategy() {
        return Strategy.LOCK;
    }

    @Override
    public LockHandle acquire(String resource, Duration lease, Duration wait) {
        HeldLock held = acquireBlocking(resource, lease, wait, Thread.currentThread());
        if (!held.context().isLeaseHeld()) { // its lease ran out before it got here (see StrategyRunner.lapsed)
            Futures.join(held.fail());
            throw StrategyRunner.lapsed(held);
        }
        return held.handle();
    }

    @Override
    public <T, E extends Throwable> T callLocked(
            String resource, Duration lease, Duration wait, CheckedSupplier<T, E> work) throws E {
        return StrategyRunner.run(
                () -> new Admission.Proceed(acquireBlocking(resource, lease, wait, null)), work, ResultCodec.none());
    }

    @Override
    public Optional<LockHandle> heldByCurrentThread(String resource) {
        HeldLock mine = heldLocks.get(keys.lock(resource));
        return mine != null && mine.isHeldByCurrentCall() ? Optional.of(mine.handle()) : Optional.empty();
    }

    @Override
    public Admission admit(ProtectedCall call) {
        return new Admission.Proceed(acquireBlocking(call.key(), call.lease(), call.maxWait(), null));
    }

    /**
     * Acquires without blocking; re-enters at once a lock held by the call it is nested in (whose context the caller
     * binds, as reactive calls do with the context they find in their subscriber's). Cancelling the returned future
     * stops the wait for a busy lock; a lock acquired after that is released at once.
     */
    @Override
    public CompletableFuture<Admission> admitAsync(ProtectedCall call) {
        HeldLock mine = heldLocks.get(keys.lock(call.key()));
        if (mine != null && mine.isHeldByCurrentCall()) { // a call nested in the holder's, its context bound
            mine.enter();
            return CompletableFuture.completedFuture(new Admission.Proceed(mine));
        }
        CompletableFuture<Admission> admission = new CompletableFuture<>();
        return Futures.handOver(
                acquireAsync(call.key(), call.lease(), call.maxWait(), null, admission::isDone)
                        .thenApply(Admission.Proceed::new),
                admission,
                unclaimed -> ((Admission.Proceed) unclaimed).permit().fail());
    }

    private HeldLock acquireBlocking(String resource, Duration lease, Duration wait, @Nullable Thread holder) {
        HeldLock mine = heldLocks.get(keys.lock(resource));
        if (mine != null && mine.isHeldByCurrentCall()) {
            mine.enter();
            return mine;
        }
        return Futures.join(acquireAsync(resource, lease, wait, holder, () -> false));
    }

    /**
     * @param holder the thread that holds the handle ({@link #acquire}), or {@code null} for a lock held by a call
     * @param gaveUp whether the caller stopped waiting: a wait then ends
     */
    private CompletableFuture<HeldLock> acquireAsync(
            String resource, Duration lease, Duration wait, @Nullable Thread holder, BooleanSupplier gaveUp) {
        Assert.isTrue(Durations.isPositive(lease), "lease must be positive");
        String key = keys.lock(resource);
        String owner = Owners.next();
        long sentAt = System.nanoTime();
        return store.acquire(key, owner, lease).thenCompose(result -> {
            if (result > 0) {
                return CompletableFuture.completedFuture(held(resource, key, owner, result, lease, sentAt, holder));
            }
            if (!Durations.isPositive(wait)) {
                return CompletableFuture.failedFuture(busy(-result));
            }
            long deadline = System.nanoTime() + wait.toNanos();
            return signals.subscribed().thenCompose(subscribed -> {
                LockReleaseSignals.Signal signal = signals.register(key);
                return awaitRelease(signal, resource, key, owner, lease, deadline, holder, gaveUp)
                        .whenComplete((held, failure) -> signals.unregister(key));
            });
        });
    }

    /**
     * How many callers of this JVM wait for the lock on {@code resource} to be released: each has tried it once, and
     * will hear its release.
     */
    public int waitersFor(String resource) {
        return signals.waiters(keys.lock(resource));
    }

    /** Tries again whenever the lock is released (or the fallback interval passes) until acquired or too late. */
    private CompletableFuture<HeldLock> awaitRelease(
            LockReleaseSignals.Signal signal,
            String resource,
            String key,
            String owner,
            Duration lease,
            long deadline,
            @Nullable Thread holder,
            BooleanSupplier gaveUp) {
        if (gaveUp.getAsBoolean()) {
            return CompletableFuture.failedFuture(new CancellationException("The caller stopped waiting"));
        }
        long seen = signal.generation();
        long sentAt = System.nanoTime();
        return store.acquire(key, owner, lease).thenCompose(result -> {
            if (result > 0) {
                return CompletableFuture.completedFuture(held(resource, key, owner, result, lease, sentAt, holder));
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return CompletableFuture.failedFuture(busy(-result));
            }
            long pause = Math.min(left, Math.min(Duration.ofMillis(-result).toNanos(), FALLBACK_POLL.toNanos()));
            return signal.changeAfter(seen, Duration.ofNanos(pause))
                    .thenCompose(
                            changed -> awaitRelease(signal, resource, key, owner, lease, deadline, holder, gaveUp));
        });
    }

    private HeldLock held(
            String resource,
            String key,
            String owner,
            long fencingToken,
            Duration lease,
            long sentAt,
            @Nullable Thread holder) {
        HeldLock acquired = new HeldLock(this, resource, key, owner, fencingToken, holder);
        acquired.leased(renewer.start(
                Strategy.LOCK,
                key,
                lease,
                sentAt,
                OptionalLong.of(fencingToken),
                () -> store.renew(key, owner, lease),
                () -> {}));
        heldLocks.put(key, acquired);
        return acquired;
    }

    /** Releases {@code held} in the store: {@code true} when it was still this owner's lock. */
    CompletableFuture<Boolean> release(HeldLock lock) {
        heldLocks.remove(lock.key(), lock);
        renewer.end(lock.lease());
        return store.release(lock.key(), lock.owner()).thenApply(released -> {
            if (!released && !lock.lease().isLost()) {
                listener.onLeaseLost(Strategy.LOCK);
            }
            return released && !lock.lease().isLost();
        });
    }

    StoreListener listener() {
        return listener;
    }

    private static LockBusyException busy(long remainingMillis) {
        return new LockBusyException(
                "The lock on this resource is held by another caller",
                Duration.ofSeconds(Math.max(1, (remainingMillis + 999) / 1000)));
    }

    @Override
    public void close() {
        store.close();
    }
}

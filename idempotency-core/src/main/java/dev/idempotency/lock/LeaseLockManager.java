package dev.idempotency.lock;

import dev.idempotency.LockBusyException;
import dev.idempotency.LockLostException;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.support.CheckedSupplier;
import dev.idempotency.support.Durations;
import dev.idempotency.support.LeaseRenewer;
import dev.idempotency.support.Owners;
import dev.idempotency.support.RedisGateway;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.Assert;

/**
 * Lease locks on resource keys: {@code SET NX PX} with an owner value, a fencing token from {@code INCR} in the same
 * cluster slot, watchdog renewal at a third of the lease, compare-and-delete release, re-entry by the holding thread,
 * and waiters woken by the release itself.
 */
public final class LeaseLockManager implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaseLockManager.class);

    /**
     * How long a fencing counter outlives its last acquisition, at least. Tokens also take the Redis clock (in
     * microseconds) as their floor, so they keep increasing after the counter expires; the counter only has to bridge
     * acquisitions closer than the clock can tell apart, and a short retention keeps Redis memory small.
     */
    static final Duration MIN_FENCE_RETENTION = Duration.ofMinutes(1);

    /** Waiters re-check at least this often, in case a release message was missed. */
    private static final long FALLBACK_POLL_MILLIS = 250;

    /**
     * KEYS[1] lock, KEYS[2] fencing counter; ARGV[1] owner, ARGV[2] lease ms, ARGV[3] fence retention ms. Returns the
     * new fencing token (> 0): one more than the last, and never below the Redis clock in microseconds, so tokens
     * increase even after the counter expired. Returns minus the remaining lease in ms when the lock is busy.
     */
    private static final RedisScript<Long> ACQUIRE = RedisScript.of("""
            if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              local now = redis.call('TIME')
              local last = tonumber(redis.call('GET', KEYS[2]) or '0')
              local fence = math.max(last + 1, now[1] * 1000000 + now[2])
              redis.call('SET', KEYS[2], string.format('%.0f', fence), 'PX', ARGV[3])
              return fence
            end
            return -math.max(redis.call('PTTL', KEYS[1]), 1)
            """, Long.class);

    /** KEYS[1] lock; ARGV[1] owner, ARGV[2] release channel. Deletes only the owner's lock and wakes waiters. */
    private static final RedisScript<Long> RELEASE = RedisScript.of("""
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('DEL', KEYS[1])
              redis.call('PUBLISH', ARGV[2], KEYS[1])
              return 1
            end
            return 0
            """, Long.class);

    /** KEYS[1] lock; ARGV[1] owner, ARGV[2] lease ms. 1 when extended, 0 when the lock is no longer the owner's. */
    private static final RedisScript<Long> RENEW = RedisScript.of("""
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              return redis.call('PEXPIRE', KEYS[1], ARGV[2])
            end
            return 0
            """, Long.class);

    private final RedisGateway redis;
    private final RedisKeys keys;
    private final LeaseRenewer renewer;
    private final LockReleaseSignals signals;
    private final byte[] channel;
    private final ConcurrentHashMap<String, LockHandle> held = new ConcurrentHashMap<>();

    public LeaseLockManager(
            RedisGateway redis, RedisConnectionFactory connectionFactory, RedisKeys keys, LeaseRenewer renewer) {
        Assert.notNull(redis, "redis must not be null");
        Assert.notNull(keys, "keys must not be null");
        Assert.notNull(renewer, "renewer must not be null");
        this.redis = redis;
        this.keys = keys;
        this.renewer = renewer;
        String channelName = keys.lock("") + ":released";
        this.channel = channelName.getBytes(StandardCharsets.UTF_8);
        this.signals = new LockReleaseSignals(connectionFactory, channelName);
    }

    /**
     * Acquires the lock on {@code resource}, waiting up to {@code wait} for a busy lock.
     *
     * @throws LockBusyException when another holder keeps it past {@code wait}
     * @throws dev.idempotency.IdempotencyStoreUnavailableException when Redis fails
     */
    public LockHandle acquire(String resource, Duration lease, Duration wait) {
        Assert.isTrue(Durations.isPositive(lease), "lease must be positive");
        String key = keys.lock(resource);
        LockHandle mine = held.get(key);
        if (mine != null && mine.isHeldBy(Thread.currentThread())) {
            mine.enter();
            return mine;
        }
        String owner = Owners.next();
        long result = tryAcquire(key, owner, lease);
        if (result <= 0 && Durations.isPositive(wait)) {
            result = awaitAndAcquire(key, owner, lease, wait);
        }
        if (result <= 0) {
            throw new LockBusyException("The lock on this resource is held by another caller", retryAfter(-result));
        }
        LockHandle handle = new LockHandle(this, resource, key, owner, result);
        handle.renewal(renewer.schedule(lease, () -> renew(handle, lease), () -> {
            handle.markLost();
            log.warn("Lock on {} expired while held (fencing token {})", resource, handle.fencingToken());
        }));
        held.put(key, handle);
        return handle;
    }

    /** Runs {@code work} under the lock on {@code resource}; see {@link #acquire}. */
    public <T, E extends Throwable> T callLocked(
            String resource, Duration lease, Duration wait, CheckedSupplier<T, E> work) throws E {
        LockHandle handle = acquire(resource, lease, wait);
        T result;
        try {
            result = work.get();
        } catch (Throwable failure) {
            try {
                handle.close();
            } catch (RuntimeException releaseFailure) {
                failure.addSuppressed(releaseFailure);
            }
            throw failure;
        }
        handle.close();
        return result;
    }

    /** The lock on {@code resource} held by the current thread, if any (to read its fencing token deep in a call). */
    public Optional<LockHandle> heldByCurrentThread(String resource) {
        LockHandle handle = held.get(keys.lock(resource));
        return handle != null && handle.isHeldBy(Thread.currentThread()) ? Optional.of(handle) : Optional.empty();
    }

    void release(LockHandle handle) {
        if (!handle.isHeldBy(Thread.currentThread())) {
            throw new IllegalStateException("A lock can only be released by the thread that holds it");
        }
        if (!handle.exit()) {
            return;
        }
        held.remove(handle.key(), handle);
        handle.stopRenewal();
        Long released = redis.script("release", RELEASE, List.of(handle.key()), bytes(handle.owner()), channel);
        if (handle.isLost() || released == null || released == 0L) {
            log.warn("Lock on {} was lost before release (fencing token {})", handle.resource(), handle.fencingToken());
            throw new LockLostException("The lock on " + handle.resource() + " expired while held; fencing token "
                    + handle.fencingToken() + " is stale");
        }
    }

    private long tryAcquire(String key, String owner, Duration lease) {
        Long result = redis.script(
                "acquire",
                ACQUIRE,
                List.of(key, RedisKeys.fence(key)),
                bytes(owner),
                bytes(Long.toString(lease.toMillis())),
                bytes(Long.toString(Math.max(MIN_FENCE_RETENTION.toMillis(), 2 * lease.toMillis()))));
        return result == null ? -1 : result;
    }

    private long awaitAndAcquire(String key, String owner, Duration lease, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        LockReleaseSignals.Signal signal = signals.register(key);
        try {
            while (true) {
                long seen = signal.generation();
                long result = tryAcquire(key, owner, lease);
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (result > 0 || left <= 0) {
                    return result;
                }
                signal.awaitChange(seen, Math.min(left, Math.min(-result, FALLBACK_POLL_MILLIS)));
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return -1;
        } finally {
            signals.unregister(key);
        }
    }

    private boolean renew(LockHandle handle, Duration lease) {
        Long renewed = redis.script(
                "renew", RENEW, List.of(handle.key()), bytes(handle.owner()), bytes(Long.toString(lease.toMillis())));
        return renewed != null && renewed == 1L;
    }

    private static Duration retryAfter(long remainingMillis) {
        return Duration.ofSeconds(Math.max(1, (remainingMillis + 999) / 1000));
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        signals.close();
    }
}

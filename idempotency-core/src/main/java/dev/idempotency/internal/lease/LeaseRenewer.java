package dev.idempotency.internal.lease;

import dev.idempotency.Strategy;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.Assert;

/**
 * Renews leases (claims and locks) at a third of their length while their work runs, and tells when one is lost. One
 * sweep on the scheduler walks the held leases; a due renewal is sent asynchronously, so renewals of any number of
 * leases are in flight together on the shared connection and nothing waits for Redis. Registering and ending a lease
 * touches only a concurrent set: a call that ends before its first renewal costs Redis nothing.
 */
public final class LeaseRenewer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaseRenewer.class);

    /** How soon a renewal that failed (Redis unreachable, timeout) is tried again. */
    static final Duration RETRY_AFTER_FAILURE = Duration.ofMillis(200);

    /** The sweep runs every tenth of the shortest lease seen, within these bounds. */
    private static final long MIN_TICK_NANOS = Duration.ofMillis(5).toNanos();

    private static final long MAX_TICK_NANOS = Duration.ofMillis(100).toNanos();

    private final Scheduling scheduling;
    private final StoreListener listener;
    private final Set<Lease> leases = ConcurrentHashMap.newKeySet();
    private volatile long tickNanos = Long.MAX_VALUE;
    private @Nullable ScheduledFuture<?> sweep;

    public LeaseRenewer(Scheduling scheduling, StoreListener listener) {
        Assert.notNull(scheduling, "scheduling must not be null");
        Assert.notNull(listener, "listener must not be null");
        this.scheduling = scheduling;
        this.listener = listener;
    }

    /**
     * Holds a lease until {@link #end(Lease)}.
     *
     * @param key the Redis key, for logs
     * @param lease the lease length
     * @param confirmedAt {@link System#nanoTime()} when the claim or acquisition was sent to Redis
     * @param renewal renews the lease in Redis: {@code true} when renewed, {@code false} when no longer this owner's
     * @param onLost runs once if the lease is lost while held
     */
    public Lease start(
            Strategy strategy,
            String key,
            Duration lease,
            long confirmedAt,
            OptionalLong fencingToken,
            Supplier<CompletableFuture<Boolean>> renewal,
            Runnable onLost) {
        Lease held = new Lease(strategy, key, lease, confirmedAt, fencingToken, renewal, onLost);
        sweepAtLeastEvery(Math.min(MAX_TICK_NANOS, Math.max(MIN_TICK_NANOS, lease.toNanos() / 10)));
        leases.add(held);
        return held;
    }

    /** Stops renewing: the work ended and the lease is completed, released or left to expire. */
    public void end(Lease lease) {
        lease.end();
        leases.remove(lease);
    }

    /**
     * The lease's work ran past its detached-renewal bound: no longer renewed, it stays in the sweep until its last
     * confirmation is a lease old, and is then reported {@link #lost lost}. Logged once.
     */
    void stoppedRenewing(Lease lease) {
        if (lease.stopRenewing()) {
            log.warn(
                    "{} lease on {}: its caller went away and the work ran past the detached-renewal bound; no longer"
                            + " renewed, it expires with its lease and is then reported lost",
                    lease.strategy(),
                    lease.key());
        }
    }

    void lost(Lease lease, String why) {
        leases.remove(lease);
        if (lease.markLost()) {
            log.warn(
                    "{} lease on {} expired while held, its work still running: {}",
                    lease.strategy(),
                    lease.key(),
                    why);
            listener.onLeaseLost(lease.strategy());
        }
    }

    void renewalFailed(Lease lease, Throwable failure) {
        log.warn(
                "Could not renew the {} lease on {}; retrying while it lasts: {}",
                lease.strategy(),
                lease.key(),
                Futures.unwrap(failure).getMessage());
    }

    private void sweep() {
        long now = System.nanoTime();
        for (Lease lease : leases) {
            try {
                if (lease.isEnded()) {
                    leases.remove(lease);
                } else {
                    lease.check(now, this);
                }
            } catch (RuntimeException ex) {
                // A failing lease must not end the sweep: the scheduler would never run it again.
                log.error("Lease renewal of {} failed", lease.key(), ex);
            }
        }
    }

    private void sweepAtLeastEvery(long nanos) {
        if (nanos < tickNanos) { // rare: only a lease shorter than any before changes the sweep
            resweep(nanos);
        }
    }

    private synchronized void resweep(long nanos) {
        if (nanos >= tickNanos) {
            return;
        }
        if (sweep != null) {
            sweep.cancel(false);
        }
        tickNanos = nanos;
        sweep = scheduling.repeat(this::sweep, Duration.ofNanos(nanos));
    }

    @Override
    public synchronized void close() {
        if (sweep != null) {
            sweep.cancel(false);
        }
        leases.clear();
    }
}

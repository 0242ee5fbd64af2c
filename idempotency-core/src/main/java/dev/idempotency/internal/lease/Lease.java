package dev.idempotency.internal.lease;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.Strategy;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A claim or lock held by running work. It remembers when Redis last confirmed it: a claim or renewal confirmed at
 * time {@code t} was applied by Redis after {@code t}, so the lease surely lasts until {@code t + lease}. Past that
 * without a newer confirmation it is treated as lost, even if Redis simply cannot be reached, because a duplicate may
 * then run.
 */
public final class Lease implements IdempotencyContext {

    private final Strategy strategy;
    private final String key;
    private final long leaseNanos;
    private final OptionalLong fencingToken;
    private final Supplier<CompletableFuture<Boolean>> renewal;
    private final Runnable onLost;
    private final AtomicBoolean renewing = new AtomicBoolean();
    private final AtomicBoolean lost = new AtomicBoolean();
    private volatile long confirmedAt;
    private volatile long nextRenewalAt;
    private volatile long renewUntil = Long.MAX_VALUE;
    private volatile boolean ended;
    private volatile boolean renewalFailed;
    private final AtomicBoolean stopped = new AtomicBoolean();

    Lease(
            Strategy strategy,
            String key,
            Duration lease,
            long confirmedAt,
            OptionalLong fencingToken,
            Supplier<CompletableFuture<Boolean>> renewal,
            Runnable onLost) {
        this.strategy = strategy;
        this.key = key;
        this.leaseNanos = lease.toNanos();
        this.confirmedAt = confirmedAt;
        this.nextRenewalAt = confirmedAt + period();
        this.fencingToken = fencingToken;
        this.renewal = renewal;
        this.onLost = onLost;
    }

    @Override
    public Strategy strategy() {
        return strategy;
    }

    @Override
    public OptionalLong fencingToken() {
        return fencingToken;
    }

    /** {@code false} once the work's claim or lock was completed, released or lost. */
    @Override
    public boolean isLeaseHeld() {
        return !ended && !lost.get() && System.nanoTime() - confirmedAt <= leaseNanos;
    }

    @Override
    public Duration remaining() {
        return isLeaseHeld() ? Duration.ofNanos(confirmedAt + leaseNanos - System.nanoTime()) : Duration.ZERO;
    }

    /** The Redis key of the claim or lock, for logs. */
    public String key() {
        return key;
    }

    /** Whether the lease was found lost (and reported) while its work ran. */
    public boolean isLost() {
        return lost.get();
    }

    boolean isEnded() {
        return ended;
    }

    void end() {
        ended = true;
    }

    /**
     * Renews for at most {@code bound} from now (its work was detached from a caller that went away); then the lease
     * runs out in Redis.
     */
    public void renewAtMostFor(Duration bound) {
        renewUntil = System.nanoTime() + bound.toNanos();
    }

    /** Renewal every third of the lease: two renewals can fail or be slow before the lease runs out. */
    long period() {
        return leaseNanos / 3;
    }

    /**
     * Called by the renewer's sweep: detects a lost lease, else sends a renewal once one is due. Past the
     * detached-renewal bound no renewal is sent, and the lease is reported lost once its last confirmation is a lease
     * old: from then on a duplicate may run, and the work must be able to tell ({@link #isLeaseHeld()}).
     */
    void check(long now, LeaseRenewer renewer) {
        boolean pastBound = renewUntil != Long.MAX_VALUE && now - renewUntil > 0;
        if (now - confirmedAt > leaseNanos) {
            renewer.lost(
                    this,
                    pastBound
                            ? "its caller went away and the work ran past the detached-renewal bound, so it was no"
                                    + " longer renewed"
                            : "no renewal confirmed for "
                                    + Duration.ofNanos(now - confirmedAt).toMillis() + " ms");
            return;
        }
        if (pastBound) {
            renewer.stoppedRenewing(this);
            return;
        }
        if (now - nextRenewalAt >= 0 && renewing.compareAndSet(false, true)) {
            renewal.get().whenComplete((renewed, failure) -> renewed(now, renewed, failure, renewer));
        }
    }

    private void renewed(long sentAt, Boolean renewed, Throwable failure, LeaseRenewer renewer) {
        try {
            if (failure != null) {
                nextRenewalAt = System.nanoTime() + Math.min(period(), LeaseRenewer.RETRY_AFTER_FAILURE.toNanos());
                if (!renewalFailed) {
                    renewalFailed = true;
                    renewer.renewalFailed(this, failure);
                }
            } else if (Boolean.TRUE.equals(renewed)) {
                renewalFailed = false;
                confirmedAt = sentAt;
                nextRenewalAt = sentAt + period();
            } else {
                renewer.lost(this, "Redis reports it expired or belongs to another owner");
            }
        } finally {
            renewing.set(false);
        }
    }

    /** Stops the renewals for good; {@code true} only for the first call, which reports it. */
    boolean stopRenewing() {
        return stopped.compareAndSet(false, true);
    }

    /** Marks the lease lost; {@code true} only for the first call, which reports it. */
    boolean markLost() {
        if (ended || !lost.compareAndSet(false, true)) {
            return false;
        }
        onLost.run();
        return true;
    }
}

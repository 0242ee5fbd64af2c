package dev.idempotency.reliability.promise;

import dev.idempotency.IdempotencyContext;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Samples a running execution's lease every {@link #WATCH_MILLIS} ms, and once more at its end, for the
 * {@link Ledger}: until when the lease was known to be held.
 */
final class LeaseWatch {

    /** How often a running execution asks its context how long its lease is held. */
    private static final long WATCH_MILLIS = 10;

    private static final ScheduledExecutorService WATCH = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "ledger-lease-watch");
        thread.setDaemon(true);
        return thread;
    });

    /** A token's context is held for good ({@code remaining()} is forever). */
    private static final Duration FOREVER = Duration.ofDays(365);

    private final IdempotencyContext context;
    private final ScheduledFuture<?> sampling;
    private volatile long heldUntil = Long.MIN_VALUE;

    LeaseWatch(IdempotencyContext context) {
        this.context = context;
        sample();
        this.sampling = WATCH.scheduleAtFixedRate(this::sample, WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
    }

    private synchronized void sample() {
        long now = System.nanoTime();
        if (context.isLeaseHeld()) {
            long left = context.remaining().compareTo(FOREVER) >= 0
                    ? Long.MAX_VALUE
                    : context.remaining().toNanos();
            heldUntil = Math.max(heldUntil, left > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + left);
        }
    }

    /** {@code Long.MAX_VALUE} when the lease is still held, else until when it was known to be held. */
    synchronized long stop() {
        sampling.cancel(false);
        sample();
        return context.isLeaseHeld() ? Long.MAX_VALUE : heldUntil;
    }
}

package dev.idempotency.reliability.promise;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.Strategy;
import dev.idempotency.spi.StoreListener;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Every execution of protected work, as the work itself saw it: which call ran it, on which key, with which fencing
 * token, when it started and ended, how it ended, whether its lease was still held at the end and, if not, until when
 * it was known to be held. Also a {@link StoreListener}: when the library reported a lease lost.
 */
public final class Ledger implements StoreListener {

    /** How often a running execution asks its context how long its lease is held. */
    private static final long WATCH_MILLIS = 10;

    private static final ScheduledExecutorService WATCH = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "ledger-lease-watch");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * One execution; {@code end} is 0 while it runs. {@code heldUntil} is the latest moment its lease was known to be
     * held ({@link System#nanoTime()}: a sample of {@code now + remaining()} while {@code isLeaseHeld()}); the lease
     * may have lasted longer (a renewal confirmed after the last sample), never shorter. {@code Long.MAX_VALUE} when
     * the lease was held at the end, or the work had no context.
     */
    public record Execution(
            long id,
            String call,
            String key,
            long fence,
            long start,
            long end,
            String outcome,
            boolean leaseHeld,
            long heldUntil,
            String answer) {}

    /** An execution that started. */
    public record Started(
            long id,
            String call,
            String key,
            long fence,
            long start,
            @Nullable IdempotencyContext context) {}

    /** One sequence for every ledger of the JVM: an answer names its execution, on whichever instance it ran. */
    private static final AtomicLong IDS = new AtomicLong();

    private final ConcurrentLinkedQueue<Started> running = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Execution> ended = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Long> lossReports = new ConcurrentLinkedQueue<>();
    private final Map<Long, Watch> watches = new ConcurrentHashMap<>();

    /** The work of {@code call} on {@code key} starts, under {@code context} (the current one when {@code null}). */
    public Started start(String call, String key, @Nullable IdempotencyContext context) {
        IdempotencyContext current =
                context != null ? context : IdempotencyContext.current().orElse(null);
        long fence = current == null ? 0 : current.fencingToken().orElse(0);
        Started started = new Started(IDS.incrementAndGet(), call, key, fence, System.nanoTime(), current);
        if (current != null) {
            watches.put(started.id(), new Watch(current));
        }
        running.add(started);
        return started;
    }

    /** The work ended with {@code outcome} ({@code ok}, {@code 4xx}, {@code 5xx}, {@code throw}). */
    public void end(Started started, String outcome, String answer) {
        Watch watch = watches.remove(started.id());
        long heldUntil = watch == null ? Long.MAX_VALUE : watch.stop();
        boolean held = heldUntil == Long.MAX_VALUE;
        ended.add(new Execution(
                started.id(),
                started.call(),
                started.key(),
                started.fence(),
                started.start(),
                System.nanoTime(),
                outcome,
                held,
                heldUntil,
                answer));
        running.remove(started);
    }

    /** The library reported a lease lost (a claim's, a lock's or a token's). */
    @Override
    public void onLeaseLost(Strategy strategy) {
        lossReports.add(System.nanoTime());
    }

    /** When the library reported a lease lost ({@link System#nanoTime()}), in order. */
    public List<Long> lossReports() {
        return List.copyOf(lossReports);
    }

    public List<Execution> ended() {
        return List.copyOf(ended);
    }

    /** Executions that started and have not ended. */
    public List<Started> running() {
        return List.copyOf(running);
    }

    /** Samples a running execution's lease every {@link #WATCH_MILLIS} ms, and once more at its end. */
    private static final class Watch {

        /** A token's context is held for good ({@code remaining()} is forever). */
        private static final Duration FOREVER = Duration.ofDays(365);

        private final IdempotencyContext context;
        private final ScheduledFuture<?> sampling;
        private volatile long heldUntil = Long.MIN_VALUE;

        Watch(IdempotencyContext context) {
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
}

package dev.idempotency.reliability.promise;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.Strategy;
import dev.idempotency.spi.StoreListener;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Every execution of protected work, as the work itself saw it: which call ran it, on which key, with which fencing
 * token, when it started and ended, how it ended, whether its lease was still held at the end and, if not, until when
 * it was known to be held. Also a {@link StoreListener}: when the library reported a lease lost. In an application JVM
 * that a history kills, each of these is also appended to a {@link LedgerFile}, which the checker's JVM reads.
 */
public final class Ledger implements StoreListener, LedgerView {

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
    private final Map<Long, LeaseWatch> watches = new ConcurrentHashMap<>();
    private final @Nullable LedgerFile file;

    /** A ledger in memory only. */
    public Ledger() {
        this(null);
    }

    /** A ledger that also appends every start, end and loss report to {@code file}, as it happens. */
    public Ledger(@Nullable LedgerFile file) {
        this.file = file;
    }

    /**
     * The ids of this JVM's executions follow {@code last}: an application JVM started after another was killed
     * numbers its executions apart, so that its answers ({@code exec-<id>}) never repeat the dead one's.
     */
    static void idsAfter(long last) {
        IDS.set(last);
    }

    /** The work of {@code call} on {@code key} starts, under {@code context} (the current one when {@code null}). */
    public Started start(String call, String key, @Nullable IdempotencyContext context) {
        IdempotencyContext current =
                context != null ? context : IdempotencyContext.current().orElse(null);
        long fence = current == null ? 0 : current.fencingToken().orElse(0);
        Started started = new Started(IDS.incrementAndGet(), call, key, fence, System.nanoTime(), current);
        if (current != null) {
            watches.put(started.id(), new LeaseWatch(current));
        }
        if (file != null) {
            file.started(started); // before the work runs: a kill from here on leaves a start without an end
        }
        running.add(started);
        return started;
    }

    /** The work ended with {@code outcome} ({@code ok}, {@code 4xx}, {@code 5xx}, {@code throw}). */
    public void end(Started started, String outcome, String answer) {
        LeaseWatch watch = watches.remove(started.id());
        long heldUntil = watch == null ? Long.MAX_VALUE : watch.stop();
        boolean held = heldUntil == Long.MAX_VALUE;
        Execution execution = new Execution(
                started.id(),
                started.call(),
                started.key(),
                started.fence(),
                started.start(),
                System.nanoTime(),
                outcome,
                held,
                heldUntil,
                answer);
        if (file != null) {
            file.ended(execution);
        }
        ended.add(execution);
        running.remove(started);
    }

    /** The library reported a lease lost (a claim's, a lock's or a token's). */
    @Override
    public void onLeaseLost(Strategy strategy) {
        long now = System.nanoTime();
        if (file != null) {
            file.lossReported(now);
        }
        lossReports.add(now);
    }

    /** When the library reported a lease lost ({@link System#nanoTime()}), in order. */
    @Override
    public List<Long> lossReports() {
        return List.copyOf(lossReports);
    }

    @Override
    public List<Execution> ended() {
        return List.copyOf(ended);
    }

    /** Executions that started and have not ended. */
    @Override
    public List<Started> running() {
        return List.copyOf(running);
    }
}

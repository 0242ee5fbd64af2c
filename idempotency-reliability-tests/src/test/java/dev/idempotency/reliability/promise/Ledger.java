package dev.idempotency.reliability.promise;

import dev.idempotency.IdempotencyContext;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Every execution of protected work, as the work itself saw it: which call ran it, on which key, with which fencing
 * token, when it started and ended, how it ended, and whether its lease was still held at the end.
 */
public final class Ledger {

    /** One execution; {@code end} is 0 while it runs. */
    public record Execution(
            long id,
            String call,
            String key,
            long fence,
            long start,
            long end,
            String outcome,
            boolean leaseHeld,
            String answer) {}

    /** An execution that started. */
    public record Started(
            long id,
            String call,
            String key,
            long fence,
            long start,
            @Nullable IdempotencyContext context) {}

    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentLinkedQueue<Started> running = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Execution> ended = new ConcurrentLinkedQueue<>();

    /** The work of {@code call} on {@code key} starts, under {@code context} (the current one when {@code null}). */
    public Started start(String call, String key, @Nullable IdempotencyContext context) {
        IdempotencyContext current =
                context != null ? context : IdempotencyContext.current().orElse(null);
        long fence = current == null ? 0 : current.fencingToken().orElse(0);
        Started started = new Started(ids.incrementAndGet(), call, key, fence, System.nanoTime(), current);
        running.add(started);
        return started;
    }

    /** The work ended with {@code outcome} ({@code ok}, {@code 4xx}, {@code 5xx}, {@code throw}). */
    public void end(Started started, String outcome, String answer) {
        boolean held = started.context() == null || started.context().isLeaseHeld();
        ended.add(new Execution(
                started.id(),
                started.call(),
                started.key(),
                started.fence(),
                started.start(),
                System.nanoTime(),
                outcome,
                held,
                answer));
        running.remove(started);
    }

    public List<Execution> ended() {
        return List.copyOf(ended);
    }

    /** Executions that started and have not ended. */
    public List<Started> running() {
        return List.copyOf(running);
    }
}

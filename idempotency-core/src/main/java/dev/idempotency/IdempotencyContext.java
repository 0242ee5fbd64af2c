package dev.idempotency;

import dev.idempotency.spi.ContextHolder;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the running work can learn about the protection it runs under: the claim or lock it holds, whether that lease
 * is still held, and for how long at least. Work that writes to another system should check {@link #isLeaseHeld()}
 * (or pass {@link #fencingToken()} along) right before it writes, so that it stops instead of overlapping a duplicate
 * once its lease ran out, for example after a long GC pause or a network partition.
 *
 * <pre>{@code
 * IdempotencyContext context = IdempotencyContext.current().orElseThrow();
 * if (!context.isLeaseHeld()) {
 *     throw new IllegalStateException("lease lost; another execution may be running");
 * }
 * ledger.write(entry, context.fencingToken().orElse(0));
 * }</pre>
 *
 * <p>{@link #current()} answers on the thread that runs a protected method. In reactive code the context travels in
 * the Reactor {@code Context} under the key {@code IdempotencyContext.class}.
 */
public interface IdempotencyContext {

    /** The context of the protected work running on this thread, if any. */
    static Optional<IdempotencyContext> current() {
        return Optional.ofNullable(ContextHolder.get());
    }

    /** The strategy that protects the work. */
    Strategy strategy();

    /**
     * The fencing token of a {@code LOCK}: a number that strictly increases with every acquisition of the resource's
     * lock. Empty for the other strategies.
     */
    OptionalLong fencingToken();

    /**
     * Whether the claim or lock is still surely held: its last renewal was confirmed less than a lease ago. Always
     * {@code true} for {@code TOKEN}, which holds no lease.
     */
    boolean isLeaseHeld();

    /**
     * How long the lease lasts at least, counted from the last confirmed renewal; zero once it may have ended. A
     * {@code TOKEN} holds no lease and reports {@link java.time.temporal.ChronoUnit#FOREVER}'s duration.
     */
    Duration remaining();
}

package dev.idempotency.spi;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.IdempotencyContext;
import org.jspecify.annotations.Nullable;

/**
 * Binds the {@link IdempotencyContext} of protected work to the thread while that work runs on it. Nested protected
 * calls stack their contexts, so that a nested call can tell that it runs inside an outer one (a lock is re-entered
 * only by a call nested in the call that holds it, never by whatever else a pooled thread serves later).
 */
public final class ContextHolder {

    private static final ThreadLocal<@Nullable Bound> CURRENT = new ThreadLocal<>();

    private ContextHolder() {}

    /** The innermost context bound on this thread, if any. */
    public static @Nullable IdempotencyContext get() {
        Bound bound = CURRENT.get();
        return bound == null ? null : bound.context();
    }

    /** Whether {@code context} is bound on this thread: the current work runs inside the call that holds it. */
    public static boolean isBound(IdempotencyContext context) {
        for (Bound bound = CURRENT.get(); bound != null; bound = bound.outer()) {
            if (bound.context() == context) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code work} with {@code context} as the current one, restoring the outer context afterwards. */
    public static <T, E extends Throwable> T callWith(IdempotencyContext context, CheckedSupplier<T, E> work) throws E {
        Bound outer = CURRENT.get();
        CURRENT.set(new Bound(context, outer));
        try {
            return work.get();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /**
     * What is bound on this thread now, innermost first: for work that resumes on other threads (a Kotlin coroutine),
     * which binds it there with {@link Binding#bind()} each time it runs, and binds back what it found when it stops.
     */
    public static Binding current() {
        return new Binding(CURRENT.get());
    }

    /** A set of contexts, innermost first, that can be bound on whatever thread runs the work. */
    public static final class Binding {

        private final @Nullable Bound bound;

        private Binding(@Nullable Bound bound) {
            this.bound = bound;
        }

        /** Makes these the contexts of the current thread. */
        public void bind() {
            if (bound == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(bound);
            }
        }
    }

    private record Bound(
            IdempotencyContext context, @Nullable Bound outer) {}
}

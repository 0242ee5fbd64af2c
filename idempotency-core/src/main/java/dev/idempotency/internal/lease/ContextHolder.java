package dev.idempotency.internal.lease;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.IdempotencyContext;
import org.jspecify.annotations.Nullable;

/** Binds the {@link IdempotencyContext} of protected work to the thread that runs it. */
public final class ContextHolder {

    private static final ThreadLocal<@Nullable IdempotencyContext> CURRENT = new ThreadLocal<>();

    private ContextHolder() {}

    public static @Nullable IdempotencyContext get() {
        return CURRENT.get();
    }

    /** Runs {@code work} with {@code context} as the current one, restoring the outer context afterwards. */
    public static <T, E extends Throwable> T callWith(IdempotencyContext context, CheckedSupplier<T, E> work) throws E {
        IdempotencyContext outer = CURRENT.get();
        CURRENT.set(context);
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
}

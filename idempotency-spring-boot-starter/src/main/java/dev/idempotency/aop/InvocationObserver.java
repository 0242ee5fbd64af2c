package dev.idempotency.aop;

import org.jspecify.annotations.Nullable;

/**
 * Watches protected calls from start to end, so that metrics can count outcomes and traces can show a span around the
 * call. The Micrometer implementation is auto-configured when Micrometer is present.
 */
@FunctionalInterface
public interface InvocationObserver {

    /** An observer that does nothing. */
    InvocationObserver NONE = operation -> (outcome, error) -> {};

    /** Called before anything else of the call happens; the returned scope is ended exactly once. */
    Scope start(IdempotentOperation operation);

    /** One observed call. */
    @FunctionalInterface
    interface Scope {

        void end(Outcome outcome, @Nullable Throwable error);
    }
}

package dev.idempotency.internal.aop;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.operation.KeylessCall;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a call whose protection failed: with {@code on-store-failure: proceed} a Redis failure before the method
 * ran lets it run unprotected (counted and logged), and so does a missing key with {@code missing-key: proceed}
 * ({@link KeylessCall}, counted as {@code no_key}); anything else ends the observation and is rethrown.
 */
public final class Unprotected {

    private static final Logger log = LoggerFactory.getLogger(Unprotected.class);

    private Unprotected() {}

    /**
     * @param started whether the method ran already: it must never run a second time
     * @return the method's result when it ran unprotected
     */
    public static @Nullable Object runOrRethrow(
            ProtectedInvocation call, InvocationObserver.Scope observation, Throwable failure, boolean started)
            throws Throwable {
        if (!started && mayRunUnprotected(call, failure)) {
            observation.end(outcomeOf(failure), null);
            return call.proceed();
        }
        observation.end(started ? Outcome.EXECUTED : Outcome.ofRejection(failure), failure);
        throw failure;
    }

    /** Whether the call may run without protection after {@code failure}; logs it when so. */
    public static boolean mayRunUnprotected(ProtectedInvocation call, Throwable failure) {
        if (failure instanceof KeylessCall) {
            log.debug(
                    "No idempotency key; running {} unprotected (missing-key: proceed)",
                    call.spec().name());
            return true;
        }
        if (failure instanceof IdempotencyStoreUnavailableException
                && call.spec().proceedOnStoreFailure()) {
            log.warn(
                    "Redis unavailable; running {} without idempotency protection: {}",
                    call.spec().name(),
                    failure.getMessage());
            return true;
        }
        return false;
    }

    /** How a call that runs unprotected after {@code failure} is counted. */
    public static Outcome outcomeOf(Throwable failure) {
        return failure instanceof KeylessCall ? Outcome.NO_KEY : Outcome.UNPROTECTED;
    }
}

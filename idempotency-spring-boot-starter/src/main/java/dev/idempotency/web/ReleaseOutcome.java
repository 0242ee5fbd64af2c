package dev.idempotency.web;

import java.util.EnumSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How a {@code REQUEST_ID} call that did not succeed ended. The outcomes listed in
 * {@code idempotency.request-id.release-on} (or a policy's {@code release-on}) release the claim, so a retry runs the
 * work again; the others are stored and replayed exactly as sent (status, problem body, headers). A returned 2xx or
 * 3xx is always stored. Outside HTTP a method that throws always releases: there is no response to store.
 */
public enum ReleaseOutcome {

    /** The method threw and nothing mapped the exception to a response, or the mapped status is 5xx. */
    EXCEPTION,

    /** The method threw, and an {@code @ExceptionHandler} or {@code ErrorResponse} mapped it to a 4xx. */
    CLIENT_ERROR_EXCEPTION,

    /** The method returned a 5xx status. */
    SERVER_ERROR,

    /** The method returned a 4xx status. */
    CLIENT_ERROR;

    /** The default: exceptions and server errors release, returned 4xx responses are kept. */
    public static Set<ReleaseOutcome> defaults() {
        return EnumSet.of(EXCEPTION, CLIENT_ERROR_EXCEPTION, SERVER_ERROR);
    }

    /**
     * The outcome of a response, or {@code null} for a success.
     *
     * @param threw whether the method threw (then {@code status} is what an exception handler mapped it to)
     * @param status the status as sent
     */
    public static @Nullable ReleaseOutcome of(boolean threw, int status) {
        if (threw) {
            return status >= 400 && status < 500 ? CLIENT_ERROR_EXCEPTION : EXCEPTION;
        }
        if (status >= 500) {
            return SERVER_ERROR;
        }
        return status >= 400 ? CLIENT_ERROR : null;
    }
}

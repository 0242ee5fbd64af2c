package dev.idempotency;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** Redis could not be reached or failed, so protection cannot be guaranteed (HTTP 503). */
public class IdempotencyStoreUnavailableException extends RetryableIdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     * @param retryAfter the delay suggested before the next attempt (HTTP {@code Retry-After})
     */
    public IdempotencyStoreUnavailableException(String message, Duration retryAfter) {
        this(message, retryAfter, null);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what happened, for the log and the problem detail
     * @param retryAfter the delay suggested before the next attempt (HTTP {@code Retry-After})
     * @param cause the failure behind it, if any
     */
    public IdempotencyStoreUnavailableException(String message, Duration retryAfter, @Nullable Throwable cause) {
        super(message, retryAfter, cause);
    }
}

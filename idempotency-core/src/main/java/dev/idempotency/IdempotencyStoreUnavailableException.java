package dev.idempotency;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** Redis could not be reached or failed, so protection cannot be guaranteed (HTTP 503). */
public class IdempotencyStoreUnavailableException extends RetryableIdempotencyException {

    public IdempotencyStoreUnavailableException(String message, Duration retryAfter) {
        this(message, retryAfter, null);
    }

    public IdempotencyStoreUnavailableException(String message, Duration retryAfter, @Nullable Throwable cause) {
        super(message, retryAfter, cause);
    }
}

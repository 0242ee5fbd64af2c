package dev.idempotency;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** A request with the same key is still running (HTTP 409). */
public class RequestInProgressException extends RetryableIdempotencyException {

    public RequestInProgressException(String message, Duration retryAfter) {
        this(message, retryAfter, null);
    }

    public RequestInProgressException(String message, Duration retryAfter, @Nullable Throwable cause) {
        super(message, retryAfter, cause);
    }
}

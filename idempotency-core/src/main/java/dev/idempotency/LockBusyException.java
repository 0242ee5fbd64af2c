package dev.idempotency;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** The lock on the resource is held by someone else (HTTP 409). */
public class LockBusyException extends RetryableIdempotencyException {

    public LockBusyException(String message, Duration retryAfter) {
        this(message, retryAfter, null);
    }

    public LockBusyException(String message, Duration retryAfter, @Nullable Throwable cause) {
        super(message, retryAfter, cause);
    }
}

package dev.idempotency;

import java.time.Duration;

/** An outcome that may change if the caller tries again later; {@link #retryAfter()} says when. */
public abstract class RetryableIdempotencyException extends IdempotencyException {

    private final Duration retryAfter;

    protected RetryableIdempotencyException(String message, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.retryAfter = retryAfter;
    }

    /** A sensible delay before the next attempt (HTTP {@code Retry-After}). */
    public Duration retryAfter() {
        return retryAfter;
    }
}

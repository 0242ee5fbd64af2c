package dev.idempotency;

import java.time.Duration;

/** An outcome that may change if the caller tries again later; {@link #retryAfter()} says when. */
public abstract class RetryableIdempotencyException extends IdempotencyException {

    /** The delay suggested before the next attempt. */
    private final Duration retryAfter;

    /**
     * Creates the exception.
     *
     * @param message what happened
     * @param retryAfter the delay suggested before the next attempt
     * @param cause the failure behind it, if any
     */
    protected RetryableIdempotencyException(String message, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.retryAfter = retryAfter;
    }

    /** A sensible delay before the next attempt (HTTP {@code Retry-After}). */
    public Duration retryAfter() {
        return retryAfter;
    }
}

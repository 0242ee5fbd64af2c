package dev.idempotency;

import java.time.Duration;

/**
 * A caller (or the application as a whole) asked for more one-time tokens than its bound allows in the current
 * window; {@link #retryAfter()} says when the window ends (HTTP 429).
 */
public class TokenLimitExceededException extends RetryableIdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message which bound was reached
     * @param retryAfter when the window ends
     */
    public TokenLimitExceededException(String message, Duration retryAfter) {
        super(message, retryAfter, null);
    }
}

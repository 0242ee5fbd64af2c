package dev.idempotency;

/**
 * The one-time token is missing, unknown or expired, or was issued to someone else or for another operation (HTTP 400).
 */
public class InvalidTokenException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public InvalidTokenException(String message) {
        super(message);
    }
}

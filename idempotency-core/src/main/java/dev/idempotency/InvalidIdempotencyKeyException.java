package dev.idempotency;

/** The idempotency key is empty, too long or has characters outside visible ASCII (HTTP 400). */
public class InvalidIdempotencyKeyException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public InvalidIdempotencyKeyException(String message) {
        super(message);
    }
}

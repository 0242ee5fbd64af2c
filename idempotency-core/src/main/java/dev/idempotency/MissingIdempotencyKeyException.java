package dev.idempotency;

/** The request carries no idempotency key where one is required (HTTP 400). */
public class MissingIdempotencyKeyException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public MissingIdempotencyKeyException(String message) {
        super(message);
    }
}

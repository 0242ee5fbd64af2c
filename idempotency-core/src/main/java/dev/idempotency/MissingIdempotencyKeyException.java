package dev.idempotency;

/** The request carries no idempotency key where one is required (HTTP 400). */
public class MissingIdempotencyKeyException extends IdempotencyException {

    public MissingIdempotencyKeyException(String message) {
        super(message);
    }
}

package dev.idempotency;

/** The idempotency key is empty, too long or has characters outside visible ASCII (HTTP 400). */
public class InvalidIdempotencyKeyException extends IdempotencyException {

    public InvalidIdempotencyKeyException(String message) {
        super(message);
    }
}

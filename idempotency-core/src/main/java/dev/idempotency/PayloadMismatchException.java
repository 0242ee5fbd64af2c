package dev.idempotency;

/** The key was used before with a different payload (HTTP 422). */
public class PayloadMismatchException extends IdempotencyException {

    public PayloadMismatchException(String message) {
        super(message);
    }
}

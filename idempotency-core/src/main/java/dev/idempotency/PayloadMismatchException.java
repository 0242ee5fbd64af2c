package dev.idempotency;

/** The key was used before with a different payload (HTTP 422). */
public class PayloadMismatchException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public PayloadMismatchException(String message) {
        super(message);
    }
}

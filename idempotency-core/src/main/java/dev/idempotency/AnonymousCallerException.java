package dev.idempotency;

/**
 * The caller is anonymous, and {@code idempotency.anonymous: reject} allows keys only for identified callers
 * (HTTP 400).
 */
public class AnonymousCallerException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public AnonymousCallerException(String message) {
        super(message);
    }
}

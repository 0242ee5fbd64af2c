package dev.idempotency;

/** The one-time token was consumed already (HTTP 409). */
public class TokenAlreadyUsedException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public TokenAlreadyUsedException(String message) {
        super(message);
    }
}

package dev.idempotency;

/** The one-time token was consumed already (HTTP 409). */
public class TokenAlreadyUsedException extends IdempotencyException {

    public TokenAlreadyUsedException(String message) {
        super(message);
    }
}

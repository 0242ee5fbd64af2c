package dev.idempotency;

/** The one-time token is missing, unknown, expired or was issued to someone else (HTTP 400). */
public class InvalidTokenException extends IdempotencyException {

    public InvalidTokenException(String message) {
        super(message);
    }
}

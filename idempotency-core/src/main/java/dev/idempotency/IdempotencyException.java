package dev.idempotency;

/** Base class of every exception this library throws; each subclass names one outcome a caller can handle. */
public abstract class IdempotencyException extends RuntimeException {

    protected IdempotencyException(String message) {
        super(message);
    }

    protected IdempotencyException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.idempotency;

/** Base class of every exception this library throws; each subclass names one outcome a caller can handle. */
public abstract class IdempotencyException extends RuntimeException {

    /**
     * Creates the exception.
     *
     * @param message what happened
     */
    protected IdempotencyException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what happened
     * @param cause the failure behind it
     */
    protected IdempotencyException(String message, Throwable cause) {
        super(message, cause);
    }
}

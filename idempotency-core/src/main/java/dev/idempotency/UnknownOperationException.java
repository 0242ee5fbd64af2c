package dev.idempotency;

/**
 * A token was requested for an operation the application does not have, or without naming one (HTTP 400): a token is
 * valid only on the {@code TOKEN} operation, or the named group of operations, it was issued for.
 */
public class UnknownOperationException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public UnknownOperationException(String message) {
        super(message);
    }
}

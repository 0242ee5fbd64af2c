package dev.idempotency;

/**
 * The call with this key ran and completed, but its result was not kept (larger than the size limit, or a stream),
 * so there is nothing to replay; the work is not run again (HTTP 409, problem type {@code result-not-stored}).
 */
public class ResultNotStoredException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public ResultNotStoredException(String message) {
        super(message);
    }
}

package dev.idempotency;

/**
 * The call with this key ran and its result is stored, but this version of the application cannot decode it (its
 * type changed in a deploy, say). The work is not run again: duplicates get this (HTTP 409, problem type
 * {@code result-not-stored}) until the record expires or an operator deletes it, unless re-running is allowed
 * ({@code idempotency.request-id.undecodable-results: rerun}).
 */
public class UndecodableResultException extends ResultNotStoredException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public UndecodableResultException(String message) {
        super(message);
    }
}

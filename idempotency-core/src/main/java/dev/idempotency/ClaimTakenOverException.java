package dev.idempotency;

import java.time.Duration;

/**
 * The claim of a {@code REQUEST_ID} call was taken over by another execution (its lease ran out, e.g. after a pause
 * longer than the lease) before the work's transaction committed, with a store that writes its records in that
 * transaction (the JDBC store). The transaction is rolled back, so the work is not done twice: thrown from the
 * transaction's commit, wherever the transaction began (around the call, or inside it). Like any
 * {@link IdempotencyStoreUnavailableException}, it means "not run": HTTP 503 {@code store-unavailable} with
 * {@code Retry-After}, and a retry gets the other execution's outcome (409 while it runs, then its replay).
 */
public class ClaimTakenOverException extends IdempotencyStoreUnavailableException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log
     * @param retryAfter the delay suggested before the next attempt (HTTP {@code Retry-After})
     */
    public ClaimTakenOverException(String message, Duration retryAfter) {
        super(message, retryAfter);
    }
}

package dev.idempotency;

/** A lock expired or was taken over while its holder still worked; the holder's fencing token is stale. */
public class LockLostException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public LockLostException(String message) {
        super(message);
    }
}

package dev.idempotency;

/** A lock expired or was taken over while its holder still worked; the holder's fencing token is stale. */
public class LockLostException extends IdempotencyException {

    public LockLostException(String message) {
        super(message);
    }
}

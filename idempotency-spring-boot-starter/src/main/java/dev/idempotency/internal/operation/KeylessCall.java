package dev.idempotency.internal.operation;

import dev.idempotency.MissingIdempotencyKeyException;

/**
 * A call without a key whose operation says {@code missing-key: proceed}: the flows run it unprotected and count it as
 * {@code no_key}. It is a missing key all the same, so a path that does not know it refuses the call (400) rather than
 * running it unprotected by accident.
 */
public final class KeylessCall extends MissingIdempotencyKeyException {

    KeylessCall(String message) {
        super(message);
    }

    /** A rollout may send many calls without a key: this is the answer to each, not a fault worth a stack trace. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}

package dev.idempotency;

/** How an {@link Idempotent} method is protected. */
public enum Strategy {
    /** The client's idempotency key is claimed on first use; the result is stored and replayed to duplicates. */
    REQUEST_ID,
    /** A one-time token issued by the server is consumed atomically by the first submit. */
    TOKEN,
    /** A lease lock on a resource key serializes concurrent work on that resource. */
    LOCK
}

package dev.idempotency.spi;

import dev.idempotency.Strategy;

/**
 * Told what the strategies do with their store, so that metrics can time calls and count what went wrong. Every method
 * has a default that does nothing; implement the ones you need. Calls come from request threads and from the stores'
 * own threads (Lettuce's I/O threads, the JDBC store's): keep them short and never block.
 */
public interface StoreListener {

    /** A listener that does nothing. */
    StoreListener NONE = new StoreListener() {};

    /** The store of a call to Redis. */
    String REDIS = "redis";

    /** The store of a statement of the JDBC record store. */
    String JDBC = "jdbc";

    /** The store of an operation of the in-memory store. */
    String IN_MEMORY = "in_memory";

    /**
     * A call to a store ended: a Redis call, a statement of the JDBC record store, or an operation of the in-memory
     * store.
     *
     * @param store which store: {@link #REDIS}, {@link #JDBC} or {@link #IN_MEMORY}
     * @param kind what the call did: {@code claim}, {@code complete}, {@code renew}, {@code release}, {@code consume},
     *     {@code issue}, {@code issue_count}, {@code restore}, {@code acquire}, {@code read}, {@code delete},
     *     {@code purge}, {@code refresh_slots}
     * @param nanos how long it took
     * @param failed whether the store failed (the caller then sees a store-unavailable exception)
     */
    default void onCall(String store, String kind, long nanos, boolean failed) {}

    /**
     * A claim or lock was lost while its work still ran: its last renewal was confirmed more than a lease ago, or
     * Redis said it belongs to someone else now. Reported once per lease.
     */
    default void onLeaseLost(Strategy strategy) {}

    /** A lock could not be released after its work ran; it is left to expire with its lease. */
    default void onLockReleaseFailed() {}

    /**
     * A stored result could not be decoded by this version of the application (its type changed): the duplicate failed
     * as {@code result-not-stored}, or, with {@code UndecodableResults.RERUN}, the result was discarded and the work ran
     * again.
     */
    default void onUndecodableResult() {}

    /**
     * A call's work completed but its result was too large to keep: its key was completed without it, and duplicates
     * are told so instead of running the work again.
     */
    default void onResultNotStored() {}

    /**
     * A one-time token was refused at issuance: {@code reason} is {@code caller} or {@code total} (a bound reached),
     * {@code anonymous} (anonymous issuance is off) or {@code operation} (no {@code TOKEN} operation of that name).
     */
    default void onTokenRefused(String reason) {}
}

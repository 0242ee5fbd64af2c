package dev.idempotency.support;

/**
 * Told about every Redis call the strategies make, so that metrics can time them by kind ({@code claim},
 * {@code complete}, {@code renew}, {@code release}, {@code consume}, {@code issue}, {@code restore},
 * {@code acquire}).
 */
@FunctionalInterface
public interface StoreCallListener {

    /** A listener that does nothing. */
    StoreCallListener NONE = (kind, nanos, failed) -> {};

    /**
     * @param kind what the call did
     * @param nanos how long it took
     * @param failed whether Redis failed (the caller then sees a store-unavailable exception)
     */
    void onCall(String kind, long nanos, boolean failed);
}

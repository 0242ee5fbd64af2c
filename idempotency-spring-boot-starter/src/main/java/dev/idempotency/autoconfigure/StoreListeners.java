package dev.idempotency.autoconfigure;

import dev.idempotency.Strategy;
import dev.idempotency.spi.StoreListener;
import java.util.List;

/** Every {@link StoreListener} bean as one. */
final class StoreListeners {

    private StoreListeners() {}

    static StoreListener composite(List<StoreListener> listeners) {
        if (listeners.isEmpty()) {
            return StoreListener.NONE;
        }
        if (listeners.size() == 1) {
            return listeners.get(0);
        }
        StoreListener[] each = listeners.toArray(StoreListener[]::new);
        return new StoreListener() {
            @Override
            public void onCall(String store, String kind, long nanos, boolean failed) {
                for (StoreListener listener : each) { // every store call: no lambda, no iterator
                    listener.onCall(store, kind, nanos, failed);
                }
            }

            @Override
            public void onLeaseLost(Strategy strategy) {
                listeners.forEach(listener -> listener.onLeaseLost(strategy));
            }

            @Override
            public void onLockReleaseFailed() {
                listeners.forEach(StoreListener::onLockReleaseFailed);
            }

            @Override
            public void onUndecodableResult() {
                listeners.forEach(StoreListener::onUndecodableResult);
            }

            @Override
            public void onResultNotStored() {
                listeners.forEach(StoreListener::onResultNotStored);
            }

            @Override
            public void onTokenRefused(String reason) {
                listeners.forEach(listener -> listener.onTokenRefused(reason));
            }
        };
    }
}

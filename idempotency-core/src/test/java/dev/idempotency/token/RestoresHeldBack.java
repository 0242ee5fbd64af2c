package dev.idempotency.token;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.token.TokenStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A real token store whose give-backs by mark fail until the test lets them through, as while Redis restarts: the one
 * fault, injected exactly at the store's boundary; every other call goes to the store underneath.
 */
final class RestoresHeldBack implements TokenStore {

    private final TokenStore store;
    private volatile boolean held = true;

    RestoresHeldBack(TokenStore store) {
        this.store = store;
    }

    void letRestoresThrough() {
        held = false;
    }

    @Override
    public CompletableFuture<Void> issue(String key, Duration ttl) {
        return store.issue(key, ttl);
    }

    @Override
    public CompletableFuture<Use> consume(String key, String mark) {
        return store.consume(key, mark);
    }

    @Override
    public CompletableFuture<Void> restore(String key) {
        return store.restore(key);
    }

    @Override
    public CompletableFuture<Boolean> restore(String key, String mark) {
        return held
                ? CompletableFuture.failedFuture(new IdempotencyStoreUnavailableException(
                        "give-backs held back by the test", Duration.ofSeconds(1)))
                : store.restore(key, mark);
    }
}

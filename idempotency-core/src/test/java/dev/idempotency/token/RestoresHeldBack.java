package dev.idempotency.token;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.token.TokenStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A real token store whose give-backs by mark fail until the test lets them through, as while Redis restarts: the one
 * fault, injected exactly at the store's boundary; every other call goes to the store underneath.
 */
final class RestoresHeldBack extends ForwardingTokenStore {

    private volatile boolean held = true;

    RestoresHeldBack(TokenStore store) {
        super(store);
    }

    void letRestoresThrough() {
        held = false;
    }

    @Override
    public CompletableFuture<Boolean> restore(String key, String mark) {
        return held
                ? CompletableFuture.failedFuture(new IdempotencyStoreUnavailableException(
                        "give-backs held back by the test", Duration.ofSeconds(1)))
                : super.restore(key, mark);
    }
}

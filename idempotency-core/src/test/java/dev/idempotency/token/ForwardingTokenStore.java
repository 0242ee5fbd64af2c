package dev.idempotency.token;

import dev.idempotency.internal.token.TokenStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A real token store seen through a test's window: every call goes to the store underneath, so that a subclass
 * overrides only the one it watches or holds back. {@code onWaitingThread()} stays this wrapper, so that nothing
 * bypasses it.
 */
abstract class ForwardingTokenStore implements TokenStore {

    private final TokenStore store;

    ForwardingTokenStore(TokenStore store) {
        this.store = store;
    }

    @Override
    public CompletableFuture<Void> issue(String key, Duration ttl) {
        return store.issue(key, ttl);
    }

    @Override
    public CompletableFuture<Void> issue(String key, Duration ttl, IssueQuota quota, String caller) {
        return store.issue(key, ttl, quota, caller);
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
        return store.restore(key, mark);
    }
}

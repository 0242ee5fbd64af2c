package dev.idempotency.autoconfigure;

import dev.idempotency.scope.ScopeResolver;
import org.jspecify.annotations.Nullable;

/**
 * The resolver {@code idempotency.scope} configures, told apart from one the application defines: only the
 * application's own is adapted for reactive calls, where the configured scope has a reactive form of its own.
 */
final class ConfiguredScope implements ScopeResolver {

    private final ScopeResolver delegate;

    ConfiguredScope(ScopeResolver delegate) {
        this.delegate = delegate;
    }

    @Override
    public @Nullable String currentScope() {
        return delegate.currentScope();
    }
}

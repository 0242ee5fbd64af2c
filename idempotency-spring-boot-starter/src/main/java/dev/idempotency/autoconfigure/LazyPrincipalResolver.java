package dev.idempotency.autoconfigure;

import dev.idempotency.scope.PrincipalResolver;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The application's {@link PrincipalResolver}, looked up on first use (the web and security configurations contribute
 * it after this one is defined) and then kept; without one every caller is anonymous.
 */
final class LazyPrincipalResolver implements PrincipalResolver {

    private static final PrincipalResolver ANONYMOUS = () -> null;

    private final ObjectProvider<PrincipalResolver> provider;
    private volatile @Nullable PrincipalResolver resolver;

    LazyPrincipalResolver(ObjectProvider<PrincipalResolver> provider) {
        this.provider = provider;
    }

    @Override
    public @Nullable String currentPrincipal() {
        PrincipalResolver current = resolver;
        if (current == null) {
            current = provider.getIfAvailable(() -> ANONYMOUS);
            resolver = current;
        }
        return current.currentPrincipal();
    }
}

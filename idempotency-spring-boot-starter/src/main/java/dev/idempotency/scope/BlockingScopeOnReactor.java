package dev.idempotency.scope;

import java.security.Principal;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.util.ClassUtils;

/**
 * An application's {@link ScopeResolver} on reactive calls, so that one resolver serves both stacks: it is called
 * with the caller's Spring Security context on the calling thread (taken from the subscriber's context, where WebFlux
 * keeps it), as on a servlet request thread. A resolver that reads other thread-bound state (the servlet request)
 * needs a {@link ReactiveScopeResolver} of its own.
 */
public final class BlockingScopeOnReactor {

    private static final boolean SECURITY = ClassUtils.isPresent(
            "org.springframework.security.core.context.SecurityContextHolder",
            BlockingScopeOnReactor.class.getClassLoader());

    private BlockingScopeOnReactor() {}

    /** {@code scopes} as a reactive resolver. */
    public static ReactiveScopeResolver of(ScopeResolver scopes) {
        return () -> ReactivePrincipals.current()
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .mapNotNull(caller -> resolve(scopes, caller.orElse(null)));
    }

    private static @Nullable String resolve(ScopeResolver scopes, @Nullable Principal caller) {
        return SECURITY ? Security.resolve(scopes, caller) : scopes.currentScope();
    }

    /** Loaded only with Spring Security on the classpath. */
    private static final class Security {

        static @Nullable String resolve(ScopeResolver scopes, @Nullable Principal caller) {
            if (!(caller instanceof Authentication authentication)) {
                return scopes.currentScope(); // anonymous, or outside HTTP: what this thread has
            }
            SecurityContext before = SecurityContextHolder.getContext();
            SecurityContextHolder.setContext(new SecurityContextImpl(authentication));
            try {
                return scopes.currentScope();
            } finally {
                SecurityContextHolder.setContext(before);
            }
        }
    }
}

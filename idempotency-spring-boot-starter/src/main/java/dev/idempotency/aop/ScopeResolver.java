package dev.idempotency.aop;

import org.jspecify.annotations.Nullable;

/**
 * The scope keys are stored under: the authenticated principal with {@code scope: principal}, one shared scope with
 * {@code scope: none} or for anonymous calls.
 */
public final class ScopeResolver {

    private static final String SHARED = "";

    private final @Nullable PrincipalResolver principals;

    /** @param principals the resolver of the caller, or {@code null} for {@code scope: none} */
    public ScopeResolver(@Nullable PrincipalResolver principals) {
        this.principals = principals;
    }

    public String scope() {
        if (principals == null) {
            return SHARED;
        }
        String principal = principals.currentPrincipal();
        // a prefix keeps a user literally named "" apart from the shared scope
        return principal == null ? SHARED : "user:" + principal;
    }
}

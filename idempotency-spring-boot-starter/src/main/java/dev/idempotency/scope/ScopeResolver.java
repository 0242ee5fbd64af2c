package dev.idempotency.scope;

import org.jspecify.annotations.Nullable;

/**
 * Names whose keys a call uses, so that the same client key from two users (or tenants) never shares a record. The
 * value is hashed into the Redis key, never used raw. The auto-configured resolver follows {@code idempotency.scope};
 * define a bean of this type for anything else, for example tenant and user together.
 *
 * <p>Called on the thread of the protected call (a servlet request thread, or the caller of a bean method).
 */
@FunctionalInterface
public interface ScopeResolver {

    /**
     * The scope of the current call, e.g. {@code user:alice}; {@code null} when the caller is anonymous, which then
     * follows {@code idempotency.anonymous} ({@code shared}: one scope for all anonymous callers; {@code reject}: 400).
     */
    @Nullable
    String currentScope();

    /** One scope for everyone ({@code idempotency.scope: none}). */
    static ScopeResolver shared() {
        return () -> "";
    }

    /** The authenticated principal's name, prefixed so that a user named {@code ""} differs from the shared scope. */
    static ScopeResolver principal(PrincipalResolver principals) {
        return () -> {
            String principal = principals.currentPrincipal();
            return principal == null ? null : "user:" + principal;
        };
    }
}

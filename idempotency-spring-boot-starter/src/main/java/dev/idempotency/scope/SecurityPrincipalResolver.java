package dev.idempotency.scope;

import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/** The authenticated user of Spring Security's current context; anonymous callers have none. */
public final class SecurityPrincipalResolver implements PrincipalResolver {

    @Override
    public @Nullable String currentPrincipal() {
        Authentication authentication =
                authenticated(SecurityContextHolder.getContext().getAuthentication());
        return authentication == null ? null : authentication.getName();
    }

    /** {@code authentication} when it stands for an authenticated caller, else {@code null}. */
    public static @Nullable Authentication authenticated(@Nullable Authentication authentication) {
        if (authentication == null
                || !authentication.isAuthenticated()
                || authentication instanceof AnonymousAuthenticationToken) {
            return null;
        }
        return authentication;
    }
}

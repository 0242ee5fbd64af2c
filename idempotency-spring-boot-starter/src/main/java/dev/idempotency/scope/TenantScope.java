package dev.idempotency.scope;

import dev.idempotency.MissingTenantException;
import java.security.Principal;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken;
import org.springframework.util.ClassUtils;

/**
 * {@code idempotency.scope: tenant}: keys are per tenant, named by a claim of the caller's token (a resource server's
 * JWT or introspected token) or an attribute of an OAuth2 principal, {@code idempotency.tenant.claim}. An anonymous
 * caller follows {@code idempotency.anonymous}; an authenticated caller without the claim is refused
 * ({@link MissingTenantException}, HTTP 403) unless {@code idempotency.tenant.missing: anonymous} treats it as
 * anonymous. Needs Spring Security.
 */
public final class TenantScope implements ScopeResolver {

    private static final boolean OAUTH2 = ClassUtils.isPresent(
            "org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal",
            TenantScope.class.getClassLoader());

    private static final boolean RESOURCE_SERVER = ClassUtils.isPresent(
            "org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken",
            TenantScope.class.getClassLoader());

    private final String claim;
    private final boolean refuseWithoutTenant;

    /** A scope that refuses an authenticated caller without the claim. */
    public TenantScope(String claim) {
        this(claim, true);
    }

    /**
     * @param refuseWithoutTenant whether an authenticated caller without the claim is refused; else it is anonymous
     */
    public TenantScope(String claim, boolean refuseWithoutTenant) {
        this.claim = claim;
        this.refuseWithoutTenant = refuseWithoutTenant;
    }

    @Override
    public @Nullable String currentScope() {
        return of(SecurityContextHolder.getContext().getAuthentication());
    }

    /**
     * The scope of {@code caller}, e.g. {@code tenant:acme}; {@code null} for an anonymous caller.
     *
     * @throws MissingTenantException when the caller is authenticated but names no tenant (unless told to treat it as
     *     anonymous)
     */
    public @Nullable String of(@Nullable Principal caller) {
        if (!(caller instanceof Authentication authentication)
                || SecurityPrincipalResolver.authenticated(authentication) == null) {
            return null;
        }
        Object tenant = tenantOf(authentication);
        if (tenant != null && !tenant.toString().isBlank()) {
            return "tenant:" + tenant;
        }
        if (refuseWithoutTenant) {
            throw new MissingTenantException(
                    "The caller is authenticated, but its credentials have no '" + claim + "' claim naming its tenant");
        }
        return null;
    }

    private @Nullable Object tenantOf(Authentication authentication) {
        if (RESOURCE_SERVER && authentication instanceof AbstractOAuth2TokenAuthenticationToken<?> token) {
            return token.getTokenAttributes().get(claim);
        }
        if (OAUTH2 && authentication.getPrincipal() instanceof OAuth2AuthenticatedPrincipal principal) {
            return principal.getAttribute(claim);
        }
        return null;
    }
}

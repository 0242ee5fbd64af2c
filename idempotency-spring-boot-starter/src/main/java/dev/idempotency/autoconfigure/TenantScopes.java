package dev.idempotency.autoconfigure;

import dev.idempotency.scope.ScopeResolver;
import dev.idempotency.scope.TenantScope;
import java.security.Principal;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.ClassUtils;

/** {@code idempotency.scope: tenant} for blocking and reactive calls; refuses to start without Spring Security. */
final class TenantScopes {

    private TenantScopes() {}

    static ScopeResolver blocking(IdempotencyProperties.Tenant tenant) {
        return tenantScope(tenant);
    }

    static Function<Principal, @Nullable String> reactive(IdempotencyProperties.Tenant tenant) {
        return tenantScope(tenant)::of;
    }

    private static TenantScope tenantScope(IdempotencyProperties.Tenant tenant) {
        String claim = tenant.getClaim();
        if (!ClassUtils.isPresent(
                "org.springframework.security.core.Authentication", TenantScopes.class.getClassLoader())) {
            throw new InvalidConfigurationPropertyValueException(
                    "idempotency.scope",
                    "tenant",
                    "the tenant is read from the authenticated caller: add Spring Security (and its resource server"
                            + " for JWTs), or define a ScopeResolver bean");
        }
        if (claim.isBlank()) {
            throw new InvalidConfigurationPropertyValueException(
                    "idempotency.tenant.claim", claim, "must name the claim that carries the tenant, e.g. tenant_id");
        }
        return new TenantScope(claim, tenant.getMissing() == IdempotencyProperties.MissingTenant.REJECT);
    }
}

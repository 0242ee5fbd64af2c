package dev.idempotency.scope;

import java.security.Principal;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.util.ClassUtils;
import org.springframework.web.filter.reactive.ServerWebExchangeContextFilter;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The authenticated caller of a reactive call: the principal of the exchange in the subscriber's context (Spring
 * Security's, when it is present), or outside HTTP, Spring Security's {@code ReactiveSecurityContextHolder}.
 * Anonymous callers have none. Needs Spring Web on the classpath.
 */
public final class ReactivePrincipals {

    private static final boolean SECURITY = ClassUtils.isPresent(
            "org.springframework.security.core.context.ReactiveSecurityContextHolder",
            ReactivePrincipals.class.getClassLoader());

    private ReactivePrincipals() {}

    /** The caller of the current reactive call, from the subscriber's context; empty when anonymous. */
    public static Mono<Principal> current() {
        return Mono.deferContextual(context -> {
            ServerWebExchange exchange =
                    context.getOrDefault(ServerWebExchangeContextFilter.EXCHANGE_CONTEXT_ATTRIBUTE, null);
            if (!SECURITY) {
                return exchange != null ? exchange.getPrincipal() : Mono.empty();
            }
            return Security.authenticated(exchange);
        });
    }

    /** Loaded only with Spring Security on the classpath. */
    private static final class Security {

        static Mono<Principal> authenticated(@org.jspecify.annotations.Nullable ServerWebExchange exchange) {
            Mono<? extends Principal> principal = exchange != null
                    ? exchange.getPrincipal()
                    : ReactiveSecurityContextHolder.getContext().mapNotNull(SecurityContext::getAuthentication);
            return principal
                    .filter(caller -> !(caller instanceof Authentication authentication)
                            || SecurityPrincipalResolver.authenticated(authentication) != null)
                    .cast(Principal.class);
        }
    }
}

package dev.idempotency.autoconfigure;

import dev.idempotency.internal.operation.ReturnTypeFlow;
import dev.idempotency.internal.reactive.ReactiveCallSource;
import dev.idempotency.internal.reactive.ReactorCallFlow;
import dev.idempotency.scope.BlockingScopeOnReactor;
import dev.idempotency.scope.ReactivePrincipals;
import dev.idempotency.scope.ReactiveScopeResolver;
import dev.idempotency.scope.ScopeResolver;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;
import reactor.core.publisher.Mono;

/**
 * {@code @Idempotent} on methods returning {@code Mono} or {@code Flux}, whenever Reactor is on the classpath: as bean
 * calls anywhere, and as handlers with WebFlux. Their scope comes from the subscriber's context.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(Mono.class)
class IdempotencyReactorConfiguration {

    private static final boolean WEB = ClassUtils.isPresent(
            "org.springframework.web.server.ServerWebExchange", IdempotencyReactorConfiguration.class.getClassLoader());

    @Bean
    @ConditionalOnMissingBean
    ReactiveScopeResolver idempotencyReactiveScopeResolver(
            IdempotencyProperties properties, ObjectProvider<ScopeResolver> applicationScopes) {
        ScopeResolver blocking = applicationScopes.getIfUnique();
        if (blocking != null && !(blocking instanceof ConfiguredScope) && WEB) {
            // The application's own resolver serves both stacks; it is never silently replaced on WebFlux.
            return BlockingScopeOnReactor.of(blocking);
        }
        if (properties.getScope() == IdempotencyProperties.KeyScope.NONE || !WEB) {
            return ReactiveScopeResolver.shared();
        }
        if (properties.getScope() == IdempotencyProperties.KeyScope.TENANT) {
            java.util.function.Function<java.security.Principal, @Nullable String> tenant =
                    TenantScopes.reactive(properties.getTenant());
            return () -> ReactivePrincipals.current().mapNotNull(tenant);
        }
        return () -> ReactivePrincipals.current().map(principal -> "user:" + principal.getName());
    }

    @Bean
    ReturnTypeFlow idempotencyReactorCallFlow(
            ReactiveScopeResolver scopes,
            ObjectProvider<ReactiveCallSource> sources,
            IdempotencyProperties properties) {
        return new ReactorCallFlow(
                scopes,
                sources.orderedStream().toList(),
                properties.getRequestId().getMaxResponseSize().toBytes());
    }
}

package dev.idempotency.openapi;

import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.autoconfigure.IdempotencyProperties;
import dev.idempotency.internal.http.TokenEndpointMapping;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.web.reactive.IdempotencyWebFluxAutoConfiguration;
import dev.idempotency.web.servlet.IdempotencyWebMvcAutoConfiguration;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * springdoc-openapi documentation of {@code @Idempotent} operations and of the token endpoint, on Spring MVC
 * ({@code springdoc-openapi-starter-webmvc-*}) and on WebFlux ({@code springdoc-openapi-starter-webflux-*}), when
 * springdoc is on the classpath. Each customizer backs off when the application defines its own.
 */
@AutoConfiguration(
        after = {
            IdempotencyAutoConfiguration.class,
            IdempotencyWebMvcAutoConfiguration.class,
            IdempotencyWebFluxAutoConfiguration.class
        })
@ConditionalOnWebApplication
@ConditionalOnClass(GlobalOperationCustomizer.class)
@ConditionalOnBean(IdempotencyAutoConfiguration.class)
public final class IdempotencyOpenApiAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    IdempotentOperationCustomizer idempotentOperationCustomizer(
            OperationRegistry registry, IdempotencyProperties properties) {
        return new IdempotentOperationCustomizer(
                registry,
                properties.getToken().getEndpoint().getPath(),
                rejectsAnonymous(properties),
                properties.getScope() == IdempotencyProperties.KeyScope.TENANT
                        && properties.getTenant().getMissing() == IdempotencyProperties.MissingTenant.REJECT);
    }

    @Bean
    @ConditionalOnMissingBean
    ProblemSchemaCustomizer idempotencyProblemSchemaCustomizer() {
        return new ProblemSchemaCustomizer();
    }

    @Bean
    @ConditionalOnMissingBean
    TokenEndpointCustomizer idempotencyTokenEndpointCustomizer(
            ObjectProvider<TokenEndpointMapping> mappings, IdempotencyProperties properties) {
        IdempotencyProperties.Token token = properties.getToken();
        return new TokenEndpointCustomizer(
                () -> mappings.orderedStream()
                        .flatMap(mapping -> mapping.mappedPath().stream())
                        .findFirst(),
                token.getHeader(),
                token.getTtl(),
                rejectsAnonymous(properties));
    }

    /** Anonymous callers get 400 only when keys are per user and {@code idempotency.anonymous} is reject. */
    private static boolean rejectsAnonymous(IdempotencyProperties properties) {
        return properties.getScope() == IdempotencyProperties.KeyScope.PRINCIPAL
                && properties.getAnonymous() == IdempotencyProperties.AnonymousMode.REJECT;
    }
}

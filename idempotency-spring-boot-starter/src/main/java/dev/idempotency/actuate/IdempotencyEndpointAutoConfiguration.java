package dev.idempotency.actuate;

import dev.idempotency.IdempotencyStore;
import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.autoconfigure.IdempotencyProperties;
import dev.idempotency.diagnostics.RedisDiagnostics;
import dev.idempotency.internal.operation.OperationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@code idempotency} Actuator endpoint, when Actuator is present and the endpoint is available (exposed). */
@AutoConfiguration(after = IdempotencyAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBean(IdempotencyAutoConfiguration.class)
public final class IdempotencyEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(IdempotencyEndpoint.class)
    IdempotencyEndpoint idempotencyEndpoint(
            OperationRegistry registry,
            IdempotencyStore idempotency,
            ObjectProvider<RedisDiagnostics> diagnostics,
            IdempotencyProperties properties) {
        return new IdempotencyEndpoint(
                registry, idempotency, diagnostics.getIfAvailable(), EndpointConfiguration.describe(properties));
    }
}

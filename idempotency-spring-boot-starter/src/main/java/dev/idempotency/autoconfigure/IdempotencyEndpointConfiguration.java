package dev.idempotency.autoconfigure;

import dev.idempotency.actuate.IdempotencyEndpoint;
import dev.idempotency.aop.OperationRegistry;
import dev.idempotency.diagnostics.RedisDiagnostics;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.support.RedisGateway;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The {@code idempotency} Actuator endpoint, when Actuator is present and the endpoint is available (exposed). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
class IdempotencyEndpointConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(IdempotencyEndpoint.class)
    IdempotencyEndpoint idempotencyEndpoint(
            OperationRegistry registry,
            RedisKeys keys,
            RedisGateway redis,
            RedisDiagnostics diagnostics,
            IdempotencyProperties properties) {
        return new IdempotencyEndpoint(registry, keys, redis, diagnostics, PropertiesMapping.describe(properties));
    }
}

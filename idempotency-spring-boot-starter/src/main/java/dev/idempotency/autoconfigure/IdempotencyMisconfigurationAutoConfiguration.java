package dev.idempotency.autoconfigure;

import dev.idempotency.aop.IdempotencyAdvisor;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

/**
 * Never silently unprotected: when {@link IdempotencyAutoConfiguration} backed off (no single
 * {@code RedisConnectionFactory}, Spring Data Redis or Spring AOP missing) but the application has
 * {@code @Idempotent} methods, startup fails with a report that says why and how to fix it.
 * {@code idempotency.enabled=false} is the one way to run them unprotected.
 */
@AutoConfiguration(after = IdempotencyAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnMissingBean(IdempotencyAdvisor.class)
public final class IdempotencyMisconfigurationAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static UnprotectedMethodsGuard idempotencyUnprotectedMethodsGuard() {
        return new UnprotectedMethodsGuard();
    }
}

package dev.idempotency.autoconfigure;

import dev.idempotency.scope.PrincipalResolver;
import dev.idempotency.scope.SecurityPrincipalResolver;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.context.SecurityContextHolder;

/** Scopes keys by Spring Security's authenticated user, when Spring Security is on the classpath. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(SecurityContextHolder.class)
class IdempotencySecurityConfiguration {

    @Bean
    @ConditionalOnMissingBean
    PrincipalResolver idempotencyPrincipalResolver() {
        return new SecurityPrincipalResolver();
    }
}

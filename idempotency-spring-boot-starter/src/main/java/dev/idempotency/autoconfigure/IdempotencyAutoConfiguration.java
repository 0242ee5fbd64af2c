package dev.idempotency.autoconfigure;

import dev.idempotency.aop.BeanMethodBinding;
import dev.idempotency.aop.CallBindingFactory;
import dev.idempotency.aop.IdempotencyAdvisor;
import dev.idempotency.aop.IdempotencyInterceptor;
import dev.idempotency.aop.InvocationObserver;
import dev.idempotency.aop.OperationRegistry;
import dev.idempotency.aop.OperationResolver;
import dev.idempotency.aop.PrincipalResolver;
import dev.idempotency.aop.ScopeResolver;
import dev.idempotency.diagnostics.RedisDiagnostics;
import dev.idempotency.diagnostics.StartupDiagnostics;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.requestid.RequestIdStore;
import dev.idempotency.support.LeaseRenewer;
import dev.idempotency.support.RedisGateway;
import dev.idempotency.support.StoreCallListener;
import dev.idempotency.token.TokenStore;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Auto-configuration of {@code @Idempotent}: the Redis stores of the three strategies, the resolved operations, and the
 * AOP advisor that applies them. Web and Spring Security parts are imported and switch on by themselves.
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class)
@ConditionalOnClass({RedisConnectionFactory.class, MethodInterceptor.class})
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@EnableConfigurationProperties(IdempotencyProperties.class)
@Import({
    IdempotencySecurityConfiguration.class,
    IdempotencyWebConfiguration.class,
    IdempotencyMetricsConfiguration.class,
    IdempotencyEndpointConfiguration.class
})
public final class IdempotencyAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RedisKeys idempotencyRedisKeys(IdempotencyProperties properties) {
        return new RedisKeys(properties.getKeyPrefix());
    }

    @Bean
    @ConditionalOnMissingBean
    RedisGateway idempotencyRedisGateway(
            RedisConnectionFactory connectionFactory, ObjectProvider<StoreCallListener> listener) {
        return new RedisGateway(connectionFactory, listener.getIfAvailable(() -> StoreCallListener.NONE));
    }

    @Bean
    @ConditionalOnMissingBean
    LeaseRenewer idempotencyLeaseRenewer() {
        return new LeaseRenewer();
    }

    @Bean
    @ConditionalOnMissingBean
    RequestIdStore idempotencyRequestIdStore(RedisGateway redis, IdempotencyProperties properties) {
        IdempotencyProperties.Redis replication = properties.getRedis();
        return new RequestIdStore(redis, replication.getWaitForReplicas(), replication.getWaitForReplicasTimeout());
    }

    @Bean
    @ConditionalOnMissingBean
    RequestIdExecutor idempotencyRequestIdExecutor(
            RequestIdStore store, LeaseRenewer renewer, IdempotencyProperties properties) {
        return new RequestIdExecutor(
                store, renewer, properties.getRequestId().getMaxResponseSize().toBytes());
    }

    @Bean
    @ConditionalOnMissingBean
    TokenStore idempotencyTokenStore(RedisGateway redis, RedisKeys keys) {
        return new TokenStore(redis, keys);
    }

    @Bean
    @ConditionalOnMissingBean
    LeaseLockManager idempotencyLockManager(
            RedisGateway redis, RedisConnectionFactory connectionFactory, RedisKeys keys, LeaseRenewer renewer) {
        return new LeaseLockManager(redis, connectionFactory, keys, renewer);
    }

    @Bean
    @ConditionalOnMissingBean
    ScopeResolver idempotencyScopeResolver(
            IdempotencyProperties properties, ObjectProvider<PrincipalResolver> principals) {
        return new ScopeResolver(
                properties.getScope() == IdempotencyProperties.KeyScope.PRINCIPAL
                        ? principals.getIfAvailable(() -> () -> null)
                        : null);
    }

    @Bean
    @ConditionalOnMissingBean
    OperationRegistry idempotencyOperationRegistry(
            IdempotencyProperties properties, ConfigurableBeanFactory beanFactory) {
        OperationResolver resolver = new OperationResolver(
                PropertiesMapping.defaults(properties),
                PropertiesMapping.policies(properties),
                beanFactory::resolveEmbeddedValue);
        return new OperationRegistry(resolver);
    }

    @Bean
    @ConditionalOnMissingBean
    CallBindingFactory idempotencyCallBindingFactory(ObjectProvider<JsonMapper> jsonMapper) {
        return BeanMethodBinding.factory(jsonMapper.getIfAvailable(JsonMapper::new));
    }

    @Bean
    @ConditionalOnMissingBean
    IdempotencyInterceptor idempotencyInterceptor(
            OperationRegistry registry,
            CallBindingFactory bindings,
            ScopeResolver scopes,
            RedisKeys keys,
            RequestIdExecutor requests,
            TokenStore tokens,
            LeaseLockManager locks,
            ObjectProvider<InvocationObserver> observer) {
        return new IdempotencyInterceptor(
                registry,
                bindings,
                scopes,
                keys,
                requests,
                tokens,
                locks,
                observer.getIfAvailable(() -> InvocationObserver.NONE));
    }

    @Bean
    @ConditionalOnMissingBean
    RedisDiagnostics idempotencyRedisDiagnostics(RedisGateway redis) {
        return new RedisDiagnostics(redis);
    }

    @Bean
    @ConditionalOnMissingBean
    StartupDiagnostics idempotencyStartupDiagnostics(RedisDiagnostics diagnostics, Environment environment) {
        return new StartupDiagnostics(diagnostics, environment);
    }

    /**
     * Static and lazy: advisors are created early, before most beans; resolving the interceptor on first call keeps Redis
     * and the stores out of that early phase.
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static IdempotencyAdvisor idempotencyAdvisor(ObjectProvider<IdempotencyInterceptor> interceptor) {
        return new IdempotencyAdvisor(
                (MethodInterceptor) invocation -> interceptor.getObject().invoke(invocation));
    }
}

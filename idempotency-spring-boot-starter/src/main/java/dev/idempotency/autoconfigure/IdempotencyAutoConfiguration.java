package dev.idempotency.autoconfigure;

import dev.idempotency.IdempotencyStore;
import dev.idempotency.aop.IdempotencyAdvisor;
import dev.idempotency.internal.aop.BlockingCallFlow;
import dev.idempotency.internal.aop.FutureCallFlow;
import dev.idempotency.internal.aop.IdempotencyInterceptor;
import dev.idempotency.internal.http.HeldBytes;
import dev.idempotency.internal.http.TokenIssuer;
import dev.idempotency.internal.operation.CallSource;
import dev.idempotency.internal.operation.OperationCheck;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.OperationResolver;
import dev.idempotency.internal.operation.Protection;
import dev.idempotency.internal.operation.ReturnTypeFlow;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.scope.PrincipalResolver;
import dev.idempotency.scope.ScopeResolver;
import dev.idempotency.spi.IdempotencyStrategy;
import dev.idempotency.token.TokenExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/**
 * Auto-configuration of {@code @Idempotent}: the three strategies on the store {@code idempotency.store} names (the
 * application's Redis, its database for the records, or this JVM's memory), the operations resolved at startup, and
 * the AOP advisor that applies them. Spring MVC, WebFlux, metrics, observations, Spring Security and the Actuator
 * endpoint are configured by their own auto-configurations when present. If it cannot set itself up while
 * {@code @Idempotent} methods exist, {@link IdempotencyMisconfigurationAutoConfiguration} stops startup.
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class)
@ConditionalOnClass(MethodInterceptor.class)
@Conditional(StoreConfigurations.Available.class)
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@EnableConfigurationProperties(IdempotencyProperties.class)
@Import({
    IdempotencySecurityConfiguration.class,
    IdempotencyReactorConfiguration.class,
    StoreConfigurations.OnRedis.class,
    StoreConfigurations.InMemory.class
})
public final class IdempotencyAutoConfiguration {

    /**
     * With the JDBC store, each transaction manager marks the claim of a protected call committed in every transaction
     * that commits inside that call, together with the call's writes ({@link RedisIdempotency#transactionListener}).
     */
    @Bean
    @ConditionalOnProperty(name = "idempotency.store", havingValue = "jdbc")
    static BeanPostProcessor idempotencyTransactionJoin() {
        return JdbcRecordStore.transactionJoin();
    }

    /** How record keys are built, for code that looks a record up: {@code keys.requestId(scope, operation, key)}. */
    @Bean
    @ConditionalOnMissingBean
    RedisKeys idempotencyRedisKeys(IdempotencyStore idempotency) {
        return idempotency.keys();
    }

    @Bean
    @ConditionalOnMissingBean
    RequestIdExecutor idempotencyRequestIdExecutor(IdempotencyStore idempotency) {
        return idempotency.requestIds();
    }

    @Bean
    @ConditionalOnMissingBean
    TokenExecutor idempotencyTokenExecutor(IdempotencyStore idempotency) {
        return idempotency.tokens();
    }

    /** The bound on the response bytes held across all calls in flight ({@code idempotency.max-held-bytes}). */
    @Bean
    @ConditionalOnMissingBean
    HeldBytes idempotencyHeldBytes(IdempotencyProperties properties) {
        return new HeldBytes(properties.getMaxHeldBytes().toBytes());
    }

    /** What the token endpoints of both stacks issue tokens with: the scope, the bounds and the lifetime. */
    @Bean
    TokenIssuer idempotencyTokenIssuer(
            IdempotencyStore idempotency, TokenExecutor tokens, IdempotencyProperties properties) {
        IdempotencyProperties.Token token = properties.getToken();
        IdempotencyProperties.Token.Endpoint endpoint = token.getEndpoint();
        return new TokenIssuer(
                tokens,
                idempotency.issueQuota(endpoint.getMaxPerCaller(), endpoint.getMaxTotal(), Duration.ofMinutes(1)),
                idempotency.listener(),
                token.getHeader(),
                token.getTtl(),
                endpoint.isAnonymous());
    }

    @Bean
    @ConditionalOnMissingBean
    LeaseLockManager idempotencyLockManager(IdempotencyStore idempotency) {
        return idempotency.locks();
    }

    @Bean
    @ConditionalOnMissingBean
    ScopeResolver idempotencyScopeResolver(
            IdempotencyProperties properties, ObjectProvider<PrincipalResolver> principals) {
        ScopeResolver configured = switch (properties.getScope()) {
            case NONE -> ScopeResolver.shared();
            case PRINCIPAL -> ScopeResolver.principal(new LazyPrincipalResolver(principals));
            case TENANT -> TenantScopes.blocking(properties.getTenant());
        };
        return new ConfiguredScope(configured);
    }

    @Bean
    @ConditionalOnMissingBean
    OperationRegistry idempotencyOperationRegistry(
            IdempotencyProperties properties,
            ConfigurableBeanFactory beanFactory,
            ObjectProvider<JsonMapper> jsonMapper,
            ObjectProvider<ReturnTypeFlow> returnTypeFlows,
            ObjectProvider<OperationCheck> checks) {
        List<ReturnTypeFlow> flows =
                new ArrayList<>(returnTypeFlows.orderedStream().toList());
        flows.add(new FutureCallFlow());
        return new OperationRegistry(new OperationResolver(
                PropertiesMapping.defaults(properties),
                PropertiesMapping.policies(properties),
                beanFactory::resolveEmbeddedValue,
                jsonMapper.getIfAvailable(JsonMapper::new),
                new BlockingCallFlow(),
                flows,
                checks.orderedStream().toList()));
    }

    @Bean
    @ConditionalOnMissingBean
    Protection idempotencyProtection(
            ObjectProvider<IdempotencyStrategy> strategies,
            ScopeResolver scopes,
            IdempotencyProperties properties,
            ObjectProvider<InvocationObserver> observers) {
        return new Protection(
                strategies.orderedStream().toList(),
                scopes,
                properties.getAnonymous() == IdempotencyProperties.AnonymousMode.REJECT,
                InvocationObserver.composite(observers.orderedStream().toList()),
                properties.getDetachedRenewal());
    }

    /**
     * Static, and resolved on the first protected call: advisors are created early, before most beans; this keeps
     * Redis and the strategies out of that early phase, and it is the advisor's advice itself (no hop between them).
     */
    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static IdempotencyInterceptor idempotencyInterceptor(
            ObjectProvider<OperationRegistry> registry,
            ObjectProvider<CallSource> sources,
            ObjectProvider<Protection> protection) {
        return IdempotencyInterceptor.onFirstCall(() -> new IdempotencyInterceptor.Dispatch(
                registry.getObject(), sources.orderedStream().toList(), protection.getObject()));
    }

    /** Static, like the interceptor it applies. Its order is {@code idempotency.advisor-order}. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static IdempotencyAdvisor idempotencyAdvisor(IdempotencyInterceptor interceptor, Environment environment) {
        IdempotencyAdvisor advisor = new IdempotencyAdvisor(interceptor);
        advisor.setOrder(
                environment.getProperty("idempotency.advisor-order", Integer.class, IdempotencyAdvisor.DEFAULT_ORDER));
        return advisor;
    }
}

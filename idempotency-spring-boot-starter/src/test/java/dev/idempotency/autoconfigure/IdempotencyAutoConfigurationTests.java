package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.actuate.IdempotencyEndpoint;
import dev.idempotency.aop.BeanMethodBinding;
import dev.idempotency.aop.CallBindingFactory;
import dev.idempotency.aop.IdempotencyAdvisor;
import dev.idempotency.aop.IdempotencyInterceptor;
import dev.idempotency.aop.InvocationObserver;
import dev.idempotency.aop.OperationRegistry;
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
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.token.TokenStore;
import dev.idempotency.web.IdempotencyProblemHandler;
import dev.idempotency.web.ServletPrincipalResolver;
import dev.idempotency.web.TokenEndpoint;
import dev.idempotency.web.WebCallBindingFactory;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.security.core.context.SecurityContextHolder;

class IdempotencyAutoConfigurationTests {

    private static final RedisServer REDIS = RedisServer.start();

    private static final List<Class<?>> CORE_BEANS = List.of(
            RedisKeys.class,
            RedisGateway.class,
            LeaseRenewer.class,
            RequestIdStore.class,
            RequestIdExecutor.class,
            TokenStore.class,
            LeaseLockManager.class,
            ScopeResolver.class,
            OperationRegistry.class,
            CallBindingFactory.class,
            IdempotencyInterceptor.class,
            IdempotencyAdvisor.class,
            InvocationObserver.class,
            StoreCallListener.class,
            RedisDiagnostics.class,
            StartupDiagnostics.class);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(DataRedisAutoConfiguration.class, IdempotencyAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + REDIS.host(), "spring.data.redis.port=" + REDIS.port());

    private final WebApplicationContextRunner webRunner = new WebApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(DataRedisAutoConfiguration.class, IdempotencyAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + REDIS.host(), "spring.data.redis.port=" + REDIS.port());

    @Test
    void createsEveryCoreBeanButNoWebPartsOutsideAWebApplication() {
        runner.run(context -> {
            CORE_BEANS.forEach(type -> assertThat(context).hasSingleBean(type));
            assertThat(context.getBean(CallBindingFactory.class)).isNotInstanceOf(WebCallBindingFactory.class);
            assertThat(context).doesNotHaveBean(TokenEndpoint.class);
            assertThat(context).doesNotHaveBean(IdempotencyProblemHandler.class);
        });
    }

    @Test
    void switchedOffByProperty() {
        runner.withPropertyValues("idempotency.enabled=false")
                .run(context -> CORE_BEANS.forEach(type -> assertThat(context).doesNotHaveBean(type)));
    }

    @Test
    void backsOffWithoutSpringDataRedis() {
        runner.withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(IdempotencyInterceptor.class));
    }

    @Test
    void backsOffWithoutAConnectionFactory() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdempotencyAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(IdempotencyInterceptor.class));
    }

    @Test
    void servletApplicationGetsHttpBindingProblemDetailsAndTheTokenEndpoint() {
        webRunner.run(context -> {
            assertThat(context.getBean(CallBindingFactory.class)).isInstanceOf(WebCallBindingFactory.class);
            assertThat(context).hasSingleBean(IdempotencyProblemHandler.class);
            assertThat(context).hasSingleBean(TokenEndpoint.class);
            assertThat(context.getBean(PrincipalResolver.class)).isInstanceOf(SecurityPrincipalResolver.class);
        });
    }

    @Test
    void metricsAreSkippedWithoutMicrometer() {
        runner.withClassLoader(new FilteredClassLoader("io.micrometer"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(InvocationObserver.class));
    }

    @Test
    void endpointOnlyWhenExposed() {
        runner.run(context -> assertThat(context).doesNotHaveBean(IdempotencyEndpoint.class));
        runner.withPropertyValues("management.endpoints.web.exposure.include=idempotency")
                .run(context -> assertThat(context).hasSingleBean(IdempotencyEndpoint.class));
        runner.withPropertyValues("management.endpoints.web.exposure.include=idempotency")
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(IdempotencyEndpoint.class));
    }

    @Test
    void tokenEndpointCanBeSwitchedOff() {
        webRunner
                .withPropertyValues("idempotency.token.endpoint.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(TokenEndpoint.class));
    }

    @Test
    void withoutSpringSecurityThePrincipalComesFromTheServletRequest() {
        webRunner
                .withClassLoader(new FilteredClassLoader(SecurityContextHolder.class))
                .run(context -> assertThat(context.getBean(PrincipalResolver.class))
                        .isInstanceOf(ServletPrincipalResolver.class));
    }

    @Test
    void scopeNoneIgnoresThePrincipal() {
        runner.withPropertyValues("idempotency.scope=none")
                .withBean(PrincipalResolver.class, () -> () -> "alice")
                .run(context ->
                        assertThat(context.getBean(ScopeResolver.class).scope()).isEmpty());
        runner.withBean(PrincipalResolver.class, () -> () -> "alice")
                .run(context ->
                        assertThat(context.getBean(ScopeResolver.class).scope()).isEqualTo("user:alice"));
    }

    @Test
    void userBeansReplaceTheAutoConfiguredOnes() {
        RedisKeys custom = new RedisKeys("custom:");
        CallBindingFactory binding = BeanMethodBinding.factory(new tools.jackson.databind.json.JsonMapper());
        webRunner
                .withBean(RedisKeys.class, () -> custom)
                .withBean(CallBindingFactory.class, () -> binding)
                .run(context -> {
                    assertThat(context.getBean(RedisKeys.class)).isSameAs(custom);
                    assertThat(context.getBean(CallBindingFactory.class)).isSameAs(binding);
                });
    }

    @Test
    void keyPrefixComesFromProperties() {
        runner.withPropertyValues("idempotency.key-prefix=shop:")
                .run(context -> assertThat(context.getBean(RedisKeys.class).requestId("", "op", "k"))
                        .startsWith("shop:request-id:"));
    }

    /** As Resilience4j checks: every bean a user may replace backs off; only the advisor is infrastructure. */
    @Test
    void everyAutoConfiguredBeanIsConditionalOnMissingBean() {
        for (Class<?> configuration : List.of(
                IdempotencyAutoConfiguration.class,
                IdempotencyWebConfiguration.class,
                IdempotencySecurityConfiguration.class,
                IdempotencyMetricsConfiguration.class,
                IdempotencyEndpointConfiguration.class)) {
            for (Method method : configuration.getDeclaredMethods()) {
                if (method.isAnnotationPresent(Bean.class) && !Modifier.isStatic(method.getModifiers())) {
                    assertThat(method.isAnnotationPresent(ConditionalOnMissingBean.class))
                            .as("%s.%s", configuration.getSimpleName(), method.getName())
                            .isTrue();
                }
            }
        }
    }

    @Test
    void beanMethodsOutsideHttpUseTheirOwnBinding() {
        runner.run(
                context -> assertThat(context.getBean(OperationRegistry.class).operations())
                        .isEmpty());
    }
}

package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.Idempotent;
import dev.idempotency.actuate.IdempotencyEndpoint;
import dev.idempotency.actuate.IdempotencyEndpointAutoConfiguration;
import dev.idempotency.aop.IdempotencyAdvisor;
import dev.idempotency.diagnostics.RedisDiagnostics;
import dev.idempotency.diagnostics.StartupDiagnostics;
import dev.idempotency.internal.aop.IdempotencyInterceptor;
import dev.idempotency.internal.operation.CallSource;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.Protection;
import dev.idempotency.internal.reactive.ReactiveCallSource;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.metrics.IdempotencyMetricsAutoConfiguration;
import dev.idempotency.metrics.IdempotencyObservationAutoConfiguration;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.scope.PrincipalResolver;
import dev.idempotency.scope.ScopeResolver;
import dev.idempotency.scope.SecurityPrincipalResolver;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.token.TokenExecutor;
import dev.idempotency.web.IdempotencyProblemHandler;
import dev.idempotency.web.reactive.IdempotencyWebFluxAutoConfiguration;
import dev.idempotency.web.servlet.IdempotencyWebMvcAutoConfiguration;
import dev.idempotency.web.servlet.ServletPrincipalResolver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.security.core.context.SecurityContextHolder;

class IdempotencyAutoConfigurationTests {

    private static final RedisServer REDIS = RedisServer.start();

    private static final AutoConfigurations ALL = AutoConfigurations.of(
            DataRedisAutoConfiguration.class,
            IdempotencyAutoConfiguration.class,
            IdempotencyMisconfigurationAutoConfiguration.class,
            IdempotencyWebMvcAutoConfiguration.class,
            IdempotencyMetricsAutoConfiguration.class,
            IdempotencyObservationAutoConfiguration.class,
            IdempotencyEndpointAutoConfiguration.class);

    private static final List<Class<?>> CORE_BEANS = List.of(
            RedisIdempotency.class,
            RedisKeys.class,
            RequestIdExecutor.class,
            TokenExecutor.class,
            LeaseLockManager.class,
            ScopeResolver.class,
            OperationRegistry.class,
            Protection.class,
            IdempotencyInterceptor.class,
            IdempotencyAdvisor.class,
            RedisDiagnostics.class,
            StartupDiagnostics.class);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(ALL)
            .withPropertyValues("spring.data.redis.host=" + REDIS.host(), "spring.data.redis.port=" + REDIS.port());

    private final WebApplicationContextRunner webRunner = new WebApplicationContextRunner()
            .withConfiguration(ALL)
            .withPropertyValues("spring.data.redis.host=" + REDIS.host(), "spring.data.redis.port=" + REDIS.port());

    static class Orders {
        @Idempotent(key = "#id")
        public String create(String id) {
            return id;
        }
    }

    @Test
    void createsEveryCoreBeanButNoWebPartsOutsideAWebApplication() {
        runner.run(context -> {
            CORE_BEANS.forEach(type -> assertThat(context).hasSingleBean(type));
            assertThat(context).doesNotHaveBean(CallSource.class);
            assertThat(context).doesNotHaveBean(IdempotencyProblemHandler.class);
        });
    }

    @Test
    void theAdvisorsAdviceIsTheInterceptorWhichResolvesWhatItUsesOnItsFirstCallOnly() {
        runner.run(context -> {
            assertThat(context.getBean(IdempotencyAdvisor.class).getAdvice())
                    .isSameAs(context.getBean(IdempotencyInterceptor.class));
            IdempotencyInterceptor.Dispatch dispatch = new IdempotencyInterceptor.Dispatch(
                    context.getBean(OperationRegistry.class), List.of(), context.getBean(Protection.class));
            AtomicInteger resolved = new AtomicInteger();
            ProxyFactory factory = new ProxyFactory(new Orders());
            factory.setProxyTargetClass(true);
            factory.addAdvisor(new IdempotencyAdvisor(IdempotencyInterceptor.onFirstCall(() -> {
                resolved.incrementAndGet();
                return dispatch;
            })));
            Orders orders = (Orders) factory.getProxy();
            assertThat(resolved).as("nothing resolved before the first call").hasValue(0);
            assertThat(orders.create("a")).isEqualTo("a");
            assertThat(orders.create("b")).isEqualTo("b");
            assertThat(resolved).as("resolved once, then kept").hasValue(1);
        });
    }

    @Test
    void switchedOffByPropertyEvenWithIdempotentMethods() {
        runner.withPropertyValues("idempotency.enabled=false")
                .withBean(Orders.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    CORE_BEANS.forEach(type -> assertThat(context).doesNotHaveBean(type));
                });
    }

    @Test
    void backsOffQuietlyWithoutSpringDataRedisWhenNothingNeedsIt() {
        runner.withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(IdempotencyInterceptor.class));
    }

    @Test
    void withoutAConnectionFactoryIdempotentMethodsStopStartup() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        IdempotencyAutoConfiguration.class, IdempotencyMisconfigurationAutoConfiguration.class))
                .withBean(Orders.class)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining("Orders.create")
                        .hasStackTraceContaining("no RedisConnectionFactory"));
    }

    @Test
    void aConnectionFactoryOtherThanLettuceStopsStartup() {
        runner.withClassLoader(new FilteredClassLoader("io.lettuce"))
                .withBean(Orders.class)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining("Idempotency needs Lettuce")
                        .hasStackTraceContaining("JedisConnectionFactory"));
    }

    @Test
    void twoConnectionFactoriesWithoutAPrimaryStopStartupSayingHowToFixIt() {
        runner.withUserConfiguration(TwoConnectionFactories.class)
                .withBean(Orders.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    while (!(failure instanceof IdempotencySetupException) && failure.getCause() != null) {
                        failure = failure.getCause();
                    }
                    assertThat(failure)
                            .isInstanceOf(IdempotencySetupException.class)
                            .hasMessageContaining("2 RedisConnectionFactory beans")
                            .hasMessageContaining("none is primary");
                    assertThat(((IdempotencySetupException) failure).action()).contains("@Primary");
                    assertThat(new IdempotencySetupFailureAnalyzer()
                                    .analyze(context.getStartupFailure())
                                    .getAction())
                            .contains("idempotency.enabled=false");
                });
    }

    @Test
    void servletApplicationGetsTheHttpBindingProblemDetailsAndSpringSecurityScopes() {
        webRunner.run(context -> {
            assertThat(context).hasSingleBean(CallSource.class);
            assertThat(context).hasSingleBean(IdempotencyProblemHandler.class);
            assertThat(context.getBean(PrincipalResolver.class)).isInstanceOf(SecurityPrincipalResolver.class);
        });
    }

    @Test
    void aReactiveApplicationHasOneCallSourceWhichAlsoClaimsTheCallsItsSubscribersBring() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(ALL)
                .withConfiguration(AutoConfigurations.of(IdempotencyWebFluxAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.host=" + REDIS.host(), "spring.data.redis.port=" + REDIS.port())
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(CallSource.class);
                    assertThat(context).hasSingleBean(ReactiveCallSource.class);
                    assertThat(context.getBean(CallSource.class)).isSameAs(context.getBean(ReactiveCallSource.class));
                });
    }

    @Test
    void withoutSpringSecurityThePrincipalComesFromTheServletRequest() {
        webRunner
                .withClassLoader(new FilteredClassLoader(SecurityContextHolder.class))
                .run(context -> assertThat(context.getBean(PrincipalResolver.class))
                        .isInstanceOf(ServletPrincipalResolver.class));
    }

    @Test
    void metricsAndObservationsOnlyWithTheirRegistries() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(InvocationObserver.class);
            assertThat(context).doesNotHaveBean(StoreListener.class);
        });
        runner.withBean(SimpleMeterRegistry.class).run(context -> {
            assertThat(context).hasBean("idempotencyRequestCounter");
            assertThat(context).hasSingleBean(StoreListener.class);
            assertThat(context).doesNotHaveBean("idempotencyObservingObserver");
        });
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
                .run(context -> assertThat(context).hasBean("idempotencyObservingObserver"));
        runner.withBean(SimpleMeterRegistry.class)
                .withClassLoader(new FilteredClassLoader("io.micrometer"))
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
    void scopeNoneIgnoresThePrincipal() {
        runner.withPropertyValues("idempotency.scope=none")
                .withBean(PrincipalResolver.class, () -> () -> "alice")
                .run(context -> assertThat(context.getBean(ScopeResolver.class).currentScope())
                        .isEmpty());
        runner.withBean(PrincipalResolver.class, () -> () -> "alice")
                .run(context -> assertThat(context.getBean(ScopeResolver.class).currentScope())
                        .isEqualTo("user:alice"));
    }

    @Test
    void userBeansReplaceTheAutoConfiguredOnes() {
        ScopeResolver tenants = () -> "tenant:acme";
        RedisKeys custom = new RedisKeys("custom:");
        webRunner
                .withBean(RedisKeys.class, () -> custom)
                .withBean(ScopeResolver.class, () -> tenants)
                .run(context -> {
                    assertThat(context.getBean(RedisKeys.class)).isSameAs(custom);
                    assertThat(context.getBean(ScopeResolver.class)).isSameAs(tenants);
                    assertThat(context.getBean(Protection.class).currentScope()).isEqualTo("tenant:acme");
                });
    }

    @Test
    void keyPrefixAndAdvisorOrderComeFromProperties() {
        runner.withPropertyValues("idempotency.key-prefix=shop:", "idempotency.advisor-order=42")
                .run(context -> {
                    assertThat(context.getBean(RedisKeys.class).requestId("", "op", "k"))
                            .startsWith("shop:request-id:");
                    assertThat(context.getBean(IdempotencyAdvisor.class).getOrder())
                            .isEqualTo(42);
                });
        runner.run(
                context -> assertThat(context.getBean(IdempotencyAdvisor.class).getOrder())
                        .isEqualTo(IdempotencyAdvisor.DEFAULT_ORDER));
    }

    @Test
    void invalidDurationsStopStartupNamingTheProperty() {
        runner.withPropertyValues("idempotency.token.ttl=0s")
                .run(context ->
                        assertThat(context).hasFailed().getFailure().hasStackTraceContaining("idempotency.token.ttl"));
    }

    /**
     * As Resilience4j checks: every bean of a public type a user may replace backs off when the user defines one.
     * Internal machinery ({@code dev.idempotency.internal}) and Spring infrastructure registrations are not beans a
     * user replaces piecemeal.
     */
    @Test
    void everyReplaceableBeanIsConditionalOnMissingBean() {
        for (Class<?> configuration : List.of(
                IdempotencyAutoConfiguration.class,
                IdempotencySecurityConfiguration.class,
                IdempotencyWebMvcAutoConfiguration.class,
                IdempotencyMetricsAutoConfiguration.class,
                IdempotencyObservationAutoConfiguration.class,
                IdempotencyEndpointAutoConfiguration.class)) {
            for (Method method : configuration.getDeclaredMethods()) {
                if (method.isAnnotationPresent(Bean.class) && isReplaceable(method.getReturnType())) {
                    assertThat(method.isAnnotationPresent(ConditionalOnMissingBean.class))
                            .as("%s.%s", configuration.getSimpleName(), method.getName())
                            .isTrue();
                }
            }
        }
    }

    private static boolean isReplaceable(Class<?> type) {
        return type.getPackageName().startsWith("dev.idempotency")
                && !type.getPackageName().startsWith("dev.idempotency.internal")
                && java.lang.reflect.Modifier.isPublic(type.getModifiers())
                && type != IdempotencyAdvisor.class
                && type != InvocationObserver.class
                && type != StoreListener.class;
    }

    static class TwoConnectionFactories {

        @Bean
        RedisConnectionFactory ordersRedis() {
            return new LettuceConnectionFactory(new RedisStandaloneConfiguration(REDIS.host(), REDIS.port()));
        }

        @Bean
        RedisConnectionFactory cacheRedis() {
            return new LettuceConnectionFactory(new RedisStandaloneConfiguration(REDIS.host(), REDIS.port()));
        }
    }
}

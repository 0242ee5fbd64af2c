package dev.idempotency.autoconfigure;

import dev.idempotency.Idempotent;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/** Finds {@code @Idempotent} methods that nothing protects, and stops startup with the reason. */
final class UnprotectedMethodsGuard implements SmartInitializingSingleton, BeanFactoryAware {

    private static final String CONNECTION_FACTORY = "org.springframework.data.redis.connection.RedisConnectionFactory";

    private @Nullable ConfigurableListableBeanFactory beanFactory;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
            this.beanFactory = listable;
        }
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (beanFactory == null) {
            return;
        }
        firstIdempotentMethod(beanFactory).ifPresent(method -> {
            throw new IdempotencySetupException(method, reason(beanFactory), action(beanFactory));
        });
    }

    private static Optional<String> firstIdempotentMethod(ConfigurableListableBeanFactory beanFactory) {
        for (String name : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = beanFactory.getType(name, false);
            if (type == null) {
                continue;
            }
            Class<?> user = ClassUtils.getUserClass(type);
            var methods = MethodIntrospector.selectMethods(user, (MethodIntrospector.MetadataLookup<Idempotent>)
                    method -> AnnotatedElementUtils.findMergedAnnotation(method, Idempotent.class));
            if (!methods.isEmpty()) {
                return Optional.of(user.getName() + "."
                        + methods.keySet().iterator().next().getName());
            }
        }
        return Optional.empty();
    }

    private static String reason(ConfigurableListableBeanFactory beanFactory) {
        if (!ClassUtils.isPresent(CONNECTION_FACTORY, UnprotectedMethodsGuard.class.getClassLoader())) {
            return "Spring Data Redis is not on the classpath";
        }
        if (!ClassUtils.isPresent(
                "org.aopalliance.intercept.MethodInterceptor", UnprotectedMethodsGuard.class.getClassLoader())) {
            return "Spring AOP is not on the classpath";
        }
        List<String> factories = connectionFactories(beanFactory);
        if (factories.isEmpty()) {
            return "there is no RedisConnectionFactory bean";
        }
        return "there are " + factories.size() + " RedisConnectionFactory beans " + factories + " and none is primary";
    }

    private static String action(ConfigurableListableBeanFactory beanFactory) {
        if (!ClassUtils.isPresent(CONNECTION_FACTORY, UnprotectedMethodsGuard.class.getClassLoader())) {
            return "Add spring-boot-starter-data-redis (idempotency-spring-boot-starter brings it: check your"
                    + " exclusions), or set idempotency.enabled=false to run @Idempotent methods unprotected.";
        }
        if (connectionFactories(beanFactory).size() > 1) {
            return "Mark the RedisConnectionFactory that should hold idempotency records @Primary, or set"
                    + " idempotency.enabled=false to run @Idempotent methods unprotected.";
        }
        return "Configure spring.data.redis.* (Spring Boot then creates the connection factory) or define a"
                + " RedisConnectionFactory bean; for tests and local runs, set idempotency.store=in-memory; or set"
                + " idempotency.enabled=false to run @Idempotent methods unprotected.";
    }

    private static List<String> connectionFactories(ConfigurableListableBeanFactory beanFactory) {
        if (!ClassUtils.isPresent(CONNECTION_FACTORY, UnprotectedMethodsGuard.class.getClassLoader())) {
            return List.of();
        }
        Class<?> type = ClassUtils.resolveClassName(CONNECTION_FACTORY, UnprotectedMethodsGuard.class.getClassLoader());
        return Arrays.asList(beanFactory.getBeanNamesForType(type, true, false));
    }
}

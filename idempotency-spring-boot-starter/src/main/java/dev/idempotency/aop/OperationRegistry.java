package dev.idempotency.aop;

import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Every {@code @Idempotent} method of the application with its resolved settings. Once all singletons exist it resolves
 * the methods of every bean, so a misconfigured method stops startup instead of failing its first request; the
 * interceptor then reads settings from here without reflection.
 */
public final class OperationRegistry implements SmartInitializingSingleton, BeanFactoryAware {

    private final OperationResolver resolver;
    private final Map<Method, IdempotentOperation> operations = new ConcurrentHashMap<>();
    private @Nullable ConfigurableListableBeanFactory beanFactory;

    public OperationRegistry(OperationResolver resolver) {
        this.resolver = resolver;
    }

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
        for (String name : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = beanFactory.getType(name, false);
            if (type != null) {
                register(ClassUtils.getUserClass(type));
            }
        }
    }

    /** Resolves and validates every {@code @Idempotent} method of {@code type}. */
    public void register(Class<?> type) {
        ReflectionUtils.doWithMethods(type, this::operationOf, method -> !method.isBridge() && !method.isSynthetic());
    }

    /**
     * The operation of a method as invoked on {@code targetClass}, resolved on first use for beans created after
     * startup.
     */
    public @Nullable IdempotentOperation operationOf(Method method, @Nullable Class<?> targetClass) {
        return operationOf(AopUtils.getMostSpecificMethod(method, targetClass));
    }

    private @Nullable IdempotentOperation operationOf(Method method) {
        IdempotentOperation known = operations.get(method);
        if (known != null) {
            return known;
        }
        IdempotentOperation resolved = resolver.resolve(method);
        if (resolved != null) {
            operations.putIfAbsent(method, resolved);
        }
        return resolved;
    }

    /** Every operation found so far (all of them, once the application has started). */
    public Collection<IdempotentOperation> operations() {
        return Collections.unmodifiableCollection(operations.values());
    }
}

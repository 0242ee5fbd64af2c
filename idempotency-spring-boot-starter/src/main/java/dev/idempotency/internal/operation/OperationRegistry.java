package dev.idempotency.internal.operation;

import dev.idempotency.Idempotent;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Every {@code @Idempotent} method of the application with its resolved settings, per method and target class. Once
 * all singletons exist it resolves the methods of every bean, so a misconfigured method stops startup instead of
 * failing its first request; a call then costs one map lookup. So does asking about a method that is not an operation
 * (the web layer asks for every handler of every request, protected or not): that answer is kept too.
 */
public final class OperationRegistry implements SmartInitializingSingleton, BeanFactoryAware {

    private static final Logger log = LoggerFactory.getLogger(OperationRegistry.class);

    private final OperationResolver resolver;
    private final Map<MethodClassKey, OperationSpec> operations = new ConcurrentHashMap<>();
    /** Methods found not to be operations: bounded by the application's methods, like {@link #operations}. */
    private final Set<MethodClassKey> notOperations = ConcurrentHashMap.newKeySet();

    private @Nullable ConfigurableListableBeanFactory beanFactory;
    private volatile boolean scanned;

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
        scan();
    }

    /** Resolves every {@code @Idempotent} method of every bean; idempotent itself. */
    public synchronized void scan() {
        if (scanned || beanFactory == null) {
            return;
        }
        for (String name : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = beanFactory.getType(name, false);
            if (type != null) {
                register(ClassUtils.getUserClass(type));
            }
        }
        scanned = true;
    }

    /** Resolves and validates every {@code @Idempotent} method of {@code type}. */
    public void register(Class<?> type) {
        ReflectionUtils.doWithMethods(
                type,
                method -> {
                    if (!AnnotatedElementUtils.hasAnnotation(method, Idempotent.class)) {
                        return;
                    }
                    if (!interceptable(method)) {
                        log.warn(
                                "@Idempotent on {}.{} has no effect: a {} method is never called through the proxy",
                                type.getName(),
                                method.getName(),
                                Modifier.toString(
                                        method.getModifiers() & (Modifier.PRIVATE | Modifier.STATIC | Modifier.FINAL)));
                        return;
                    }
                    find(method, type);
                },
                method -> !method.isBridge() && !method.isSynthetic());
    }

    private static boolean interceptable(Method method) {
        int modifiers = method.getModifiers();
        return !Modifier.isPrivate(modifiers) && !Modifier.isStatic(modifiers) && !Modifier.isFinal(modifiers);
    }

    /** The operation of {@code method} as invoked on {@code targetClass}; resolved on first use for later beans. */
    public @Nullable OperationSpec find(Method method, @Nullable Class<?> targetClass) {
        MethodClassKey key = new MethodClassKey(method, targetClass);
        OperationSpec known = operations.get(key);
        if (known != null || notOperations.contains(key)) {
            return known;
        }
        Class<?> target = targetClass != null ? targetClass : method.getDeclaringClass();
        OperationSpec resolved = resolver.resolve(AopUtils.getMostSpecificMethod(method, target), target);
        if (resolved != null) {
            operations.putIfAbsent(key, resolved);
        } else {
            notOperations.add(key);
        }
        return resolved;
    }

    /** Whether {@link #find} answers for {@code method} on {@code targetClass} from what it kept, resolving nothing. */
    boolean knows(Method method, @Nullable Class<?> targetClass) {
        MethodClassKey key = new MethodClassKey(method, targetClass);
        return operations.containsKey(key) || notOperations.contains(key);
    }

    /** Whether any operation uses {@code TOKEN}: then the token endpoint is mapped unless disabled. */
    public boolean usesTokens() {
        return operations().stream().anyMatch(spec -> spec.strategy() == dev.idempotency.Strategy.TOKEN);
    }

    /** Every operation found (all of them, once the application has started), one per target class and method. */
    public Collection<OperationSpec> operations() {
        scan();
        Map<String, OperationSpec> distinct = new java.util.TreeMap<>();
        operations
                .values()
                .forEach(spec -> distinct.putIfAbsent(spec.targetClass().getName() + " " + spec.method(), spec));
        return Collections.unmodifiableCollection(distinct.values());
    }
}

package dev.idempotency.internal.operation;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import org.springframework.core.KotlinDetector;
import org.springframework.util.ClassUtils;

/**
 * Kotlin {@code suspend fun}s under {@code @Idempotent}. Spring AOP invokes one as a {@code Mono} when
 * kotlinx-coroutines-reactor is on the class path (and awaits what the interceptors return), so the starter runs it
 * exactly as a method returning {@code Mono<T>}: the claim, token or lock spans the whole coroutine, and the
 * {@code IdempotencyContext} goes with it from thread to thread ({@code internal.kotlin.SuspendingCalls}). The forms
 * that cannot be protected fail at startup. Needs no Kotlin at run time unless such a method exists.
 */
public final class SuspendingFunctions {

    private static final String COROUTINES_REACTOR = "kotlinx.coroutines.reactor.MonoKt";
    private static final String FLOW = "kotlinx.coroutines.flow.Flow";

    private SuspendingFunctions() {}

    public static boolean isSuspending(Method method) {
        return KotlinDetector.isKotlinPresent() && KotlinDetector.isSuspendingFunction(method);
    }

    /**
     * @throws IllegalArgumentException for the forms whose work would run after the interceptor returned, unprotected
     */
    static void check(Method method) {
        if (returns(method, FLOW) || (isSuspending(method) && isFlow(valueType(method)))) {
            throw new IllegalArgumentException("a kotlinx.coroutines.flow.Flow runs after the method returned, outside"
                    + " its protection; return a Flux (or a List from a suspend fun) instead");
        }
        ClassLoader loader = method.getDeclaringClass().getClassLoader();
        if (isSuspending(method) && !ClassUtils.isPresent(COROUTINES_REACTOR, loader)) {
            throw new IllegalArgumentException("a suspend fun under @Idempotent needs"
                    + " org.jetbrains.kotlinx:kotlinx-coroutines-reactor on the class path, through which Spring AOP"
                    + " runs it as a Mono");
        }
    }

    /** The value a suspend fun produces: {@code T} of its last parameter, {@code Continuation<? super T>}. */
    public static Type valueType(Method method) {
        Type[] parameters = method.getGenericParameterTypes();
        Type continuation = parameters[parameters.length - 1];
        if (!(continuation instanceof ParameterizedType parameterized)) {
            return Object.class;
        }
        Type value = parameterized.getActualTypeArguments()[0];
        if (value instanceof WildcardType wildcard) {
            return wildcard.getLowerBounds().length > 0 ? wildcard.getLowerBounds()[0] : wildcard.getUpperBounds()[0];
        }
        return value;
    }

    /** The return type a suspend fun runs as: {@code Mono}, there whenever {@link #check} passed. */
    static Class<?> runsAs(Method method) {
        return ClassUtils.resolveClassName(
                "reactor.core.publisher.Mono", method.getDeclaringClass().getClassLoader());
    }

    private static boolean returns(Method method, String typeName) {
        return method.getReturnType().getName().equals(typeName);
    }

    private static boolean isFlow(Type type) {
        Type raw = type instanceof ParameterizedType parameterized ? parameterized.getRawType() : type;
        return raw instanceof Class<?> rawClass && rawClass.getName().equals(FLOW);
    }
}

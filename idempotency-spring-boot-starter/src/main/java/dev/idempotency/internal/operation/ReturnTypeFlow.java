package dev.idempotency.internal.operation;

import java.lang.reflect.Method;
import java.lang.reflect.Type;

/**
 * How bean methods of some return types run under protection, e.g. futures or reactive types; methods whose return
 * type no registered flow supports run blocking. Chosen once per method at startup.
 */
public interface ReturnTypeFlow {

    /** Whether this flow runs methods returning {@code returnType}. */
    boolean supports(Class<?> returnType);

    InvocationFlow flow();

    /** The type of the value duplicates get back, e.g. {@code T} of {@code CompletableFuture<T>}. */
    Type valueType(Method method);
}

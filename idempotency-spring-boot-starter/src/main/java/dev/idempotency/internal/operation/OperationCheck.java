package dev.idempotency.internal.operation;

import dev.idempotency.Strategy;
import java.lang.reflect.Method;

/** A startup check that a layer (Spring MVC, WebFlux) adds for the methods it serves, e.g. no replay of streams. */
@FunctionalInterface
public interface OperationCheck {

    /**
     * @throws IllegalArgumentException naming the problem when {@code method} cannot be protected with
     *     {@code strategy}
     */
    void check(Method method, Strategy strategy);
}

package dev.idempotency.internal.operation;

import java.lang.reflect.Method;

/** An {@code @Idempotent} method is misconfigured; thrown at startup so the application does not start. */
public class InvalidIdempotentMethodException extends IllegalStateException {

    private final String methodName;
    private final String problem;

    public InvalidIdempotentMethodException(Method method, String problem) {
        super("@Idempotent on " + describe(method) + ": " + problem);
        this.methodName = describe(method);
        this.problem = problem;
    }

    /** The method, as {@code com.shop.OrderController.create}. */
    public String methodName() {
        return methodName;
    }

    /** What is wrong with it. */
    public String problem() {
        return problem;
    }

    private static String describe(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName();
    }
}

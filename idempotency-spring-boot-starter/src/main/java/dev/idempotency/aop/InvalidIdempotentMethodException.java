package dev.idempotency.aop;

import java.lang.reflect.Method;

/** An {@code @Idempotent} method is misconfigured; thrown at startup so the application does not start. */
public class InvalidIdempotentMethodException extends IllegalStateException {

    public InvalidIdempotentMethodException(Method method, String problem) {
        super("@Idempotent on " + method.getDeclaringClass().getName() + "." + method.getName() + ": " + problem);
    }
}

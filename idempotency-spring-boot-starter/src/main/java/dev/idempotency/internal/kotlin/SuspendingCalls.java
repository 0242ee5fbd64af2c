package dev.idempotency.internal.kotlin;

import dev.idempotency.spi.ContextHolder;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ProxyMethodInvocation;

/**
 * Lets the {@code IdempotencyContext} of a protected {@code suspend fun} travel with its coroutine. Spring AOP runs the
 * function in a coroutine of the context of its {@code Continuation} argument; the call gets one whose context also
 * binds what is bound on the calling thread now (the call's protection, innermost) on every thread the body resumes
 * on, and unbinds it when the body suspends. The caller's own continuation is left as it was, so the caller's code
 * after the call does not see the callee's context.
 */
public final class SuspendingCalls {

    private SuspendingCalls() {}

    /** Binds the contexts bound on this thread now to the coroutine that {@code invocation} is about to start. */
    public static void bindCurrentContext(MethodInvocation invocation) {
        if (ContextHolder.get() == null || !(invocation instanceof ProxyMethodInvocation proxied)) {
            return;
        }
        Object[] arguments = invocation.getArguments().clone();
        int last = arguments.length - 1;
        if (!(arguments[last] instanceof Continuation<?> caller)) {
            return;
        }
        arguments[last] = bound(caller, new ContextElement(ContextHolder.current()));
        proxied.setArguments(arguments);
    }

    private static <T> Continuation<T> bound(Continuation<T> caller, ContextElement element) {
        CoroutineContext context = caller.getContext().plus(element);
        return new Continuation<>() {
            @Override
            public CoroutineContext getContext() {
                return context;
            }

            @Override
            public void resumeWith(Object result) {
                caller.resumeWith(result);
            }
        };
    }
}

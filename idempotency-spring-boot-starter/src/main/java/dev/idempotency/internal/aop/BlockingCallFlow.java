package dev.idempotency.internal.aop;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.OperationSpec;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import dev.idempotency.spi.ProtectedCall;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A call outside HTTP whose work runs on the calling thread: the payload is its arguments, the operation the bean
 * method, and a duplicate gets the stored result decoded to the return type.
 */
public final class BlockingCallFlow implements InvocationFlow {

    @Override
    public @Nullable Object run(ProtectedInvocation call) throws Throwable {
        return run(call, () -> beanCall(call));
    }

    /**
     * Runs {@code call} on this thread as {@code protectedCall} describes it, for a layer that takes the key and
     * payload from its own input (a Kafka record). The description is built inside the observation, so that a missing
     * or malformed key is observed as a rejection.
     */
    public static @Nullable Object run(ProtectedInvocation call, Supplier<ProtectedCall> protectedCall)
            throws Throwable {
        InvocationObserver.Scope observation = call.observe();
        Work work = new Work(call);
        try {
            Object result = StrategyRunner.run(
                    call.strategy(),
                    protectedCall.get(),
                    work,
                    call.spec().beanCall().codec());
            observation.end(work.started ? Outcome.EXECUTED : Outcome.REPLAYED, null);
            return result;
        } catch (Throwable failure) {
            return Unprotected.runOrRethrow(call, observation, failure, work.started);
        }
    }

    /** The call as a strategy sees it outside HTTP: no headers, the bean method as operation, arguments as payload. */
    static ProtectedCall beanCall(ProtectedInvocation call) {
        OperationSpec spec = call.spec();
        return call.call(
                call.protection().currentScope(),
                header -> null,
                spec.id(),
                () -> spec.beanCall().arguments().digest(call.invocation().getArguments()));
    }

    /** The method call, remembering whether it started: after that, a Redis failure must not run it a second time. */
    static final class Work implements CheckedSupplier<@Nullable Object, Throwable> {

        private final ProtectedInvocation call;
        boolean started;

        Work(ProtectedInvocation call) {
            this.call = call;
        }

        @Override
        public @Nullable Object get() throws Throwable {
            started = true;
            return call.proceed();
        }
    }
}

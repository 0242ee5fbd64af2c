package dev.idempotency.internal.aop;

import dev.idempotency.internal.operation.CallSource;
import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.OperationSpec;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.internal.operation.Protection;
import java.util.List;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;

/**
 * Applies {@code @Idempotent}, as the advisor's advice: looks up the settings resolved at startup, and hands the call to
 * the {@link CallSource} that claims it (the handler of the current request, the listener of a bound record), else to
 * the flow its return type chose (a bean call). Nothing here
 * reflects or parses per call. Advisors are created early, before most beans: built {@link #onFirstCall}, it resolves
 * what it uses on the first protected call and keeps it, so Redis and the strategies stay out of that early phase and
 * no call pays a bean lookup.
 */
public final class IdempotencyInterceptor implements MethodInterceptor {

    /** What a call is dispatched with. */
    public record Dispatch(OperationRegistry registry, List<CallSource> sources, Protection protection) {

        public Dispatch {
            sources = List.copyOf(sources);
        }
    }

    private final Supplier<Dispatch> resolve;
    private volatile @Nullable Dispatch dispatch;

    private IdempotencyInterceptor(Supplier<Dispatch> resolve, @Nullable Dispatch dispatch) {
        this.resolve = resolve;
        this.dispatch = dispatch;
    }

    public IdempotencyInterceptor(OperationRegistry registry, List<CallSource> sources, Protection protection) {
        this(new Dispatch(registry, sources, protection));
    }

    private IdempotencyInterceptor(Dispatch ready) {
        this(() -> ready, ready);
    }

    /** An interceptor that resolves its collaborators on the first call that needs them (once, then kept). */
    public static IdempotencyInterceptor onFirstCall(Supplier<Dispatch> resolve) {
        return new IdempotencyInterceptor(resolve, null);
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Dispatch current = dispatch;
        if (current == null) {
            current = resolve.get(); // the same beans on every thread: a race only resolves twice
            dispatch = current;
        }
        Object target = invocation.getThis();
        OperationSpec spec = current.registry()
                .find(invocation.getMethod(), target == null ? null : AopUtils.getTargetClass(target));
        if (spec == null) {
            return invocation.proceed();
        }
        ProtectedInvocation call = new ProtectedInvocation(spec, invocation, current.protection());
        for (CallSource source : current.sources()) {
            InvocationFlow flow = source.select(call);
            if (flow != null) {
                return flow.run(call);
            }
        }
        return spec.beanCall().flow().run(call);
    }
}

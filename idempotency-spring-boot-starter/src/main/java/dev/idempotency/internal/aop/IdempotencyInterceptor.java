package dev.idempotency.internal.aop;

import dev.idempotency.internal.operation.FlowSelector;
import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.OperationSpec;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.internal.operation.Protection;
import java.util.List;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;

/**
 * Applies {@code @Idempotent}: looks up the settings resolved at startup, and hands the call to its flow (the web
 * layer's for a handler of the current request, else the one its return type chose). Nothing here reflects or parses
 * per call.
 */
public final class IdempotencyInterceptor implements MethodInterceptor {

    private final OperationRegistry registry;
    private final List<FlowSelector> selectors;
    private final Protection protection;

    public IdempotencyInterceptor(OperationRegistry registry, List<FlowSelector> selectors, Protection protection) {
        this.registry = registry;
        this.selectors = List.copyOf(selectors);
        this.protection = protection;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        OperationSpec spec =
                registry.find(invocation.getMethod(), target == null ? null : AopUtils.getTargetClass(target));
        if (spec == null) {
            return invocation.proceed();
        }
        ProtectedInvocation call = new ProtectedInvocation(spec, invocation, protection);
        for (FlowSelector selector : selectors) {
            InvocationFlow flow = selector.select(call);
            if (flow != null) {
                return flow.run(call);
            }
        }
        return spec.beanCall().flow().run(call);
    }
}

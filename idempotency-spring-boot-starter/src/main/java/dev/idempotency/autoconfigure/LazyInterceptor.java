package dev.idempotency.autoconfigure;

import dev.idempotency.internal.aop.IdempotencyInterceptor;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/** The advisor's advice: looks the interceptor up on the first call, then keeps it, so no call pays a bean lookup. */
final class LazyInterceptor implements MethodInterceptor {

    private final ObjectProvider<IdempotencyInterceptor> provider;
    private volatile @Nullable IdempotencyInterceptor interceptor;

    LazyInterceptor(ObjectProvider<IdempotencyInterceptor> provider) {
        this.provider = provider;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        IdempotencyInterceptor current = interceptor;
        if (current == null) {
            current = provider.getObject();
            interceptor = current;
        }
        return current.invoke(invocation);
    }
}

package dev.idempotency.internal.operation;

import org.jspecify.annotations.Nullable;

/**
 * Where a protected call comes from: one adapter per source (Spring MVC's request, WebFlux's exchange, a Kafka record),
 * each a bean, asked in order for every protected call. A source claims the calls it delivers and runs them its own way
 * (where the key, the payload and the answer live); a call no source claims is a bean call, run by the flow its return
 * type chose at startup ({@link ReturnTypeFlow}: how the work runs). These two choices are the whole dispatch.
 * A source whose calls are known only when their publisher is subscribed (WebFlux) is a
 * {@link dev.idempotency.internal.reactive.ReactiveCallSource} too.
 */
@FunctionalInterface
public interface CallSource {

    /**
     * The flow of this call when this source delivers it on the current thread (the handler of the current request,
     * the listener of the bound record), or {@code null} when it is not this source's.
     */
    @Nullable
    InvocationFlow select(ProtectedInvocation call);
}

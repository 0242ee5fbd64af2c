package dev.idempotency.internal.reactive;

import dev.idempotency.internal.operation.ProtectedInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.util.context.ContextView;

/**
 * Claims reactive calls of a layer, as {@link dev.idempotency.internal.operation.FlowSelector} does for blocking
 * ones: WebFlux takes the handler of the exchange in the subscriber's context. Calls no binding claims run as bean
 * calls.
 */
@FunctionalInterface
public interface ReactiveBinding {

    /**
     * The protected call as this layer runs it, or {@code null} when it is not this layer's.
     *
     * @param many whether the method returns a {@code Flux}
     */
    @Nullable
    Publisher<?> bind(ProtectedInvocation call, ContextView context, boolean many);
}

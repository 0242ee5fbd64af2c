package dev.idempotency.internal.operation;

import org.jspecify.annotations.Nullable;

/**
 * Claims the calls a layer serves: Spring MVC takes the handler of the current request, WebFlux the handler of the
 * current exchange. Calls no selector claims run as bean calls.
 */
@FunctionalInterface
public interface FlowSelector {

    /** The flow of this call, or {@code null} when it is not this layer's. */
    @Nullable
    InvocationFlow select(ProtectedInvocation call);
}

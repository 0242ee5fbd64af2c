package dev.idempotency.internal.reactive;

import dev.idempotency.internal.operation.CallSource;
import dev.idempotency.internal.operation.ProtectedInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.util.context.ContextView;

/**
 * A {@link CallSource} whose reactive calls are known only once subscribed, from the subscriber's context: WebFlux's
 * handler of the exchange. {@link ReactorCallFlow} asks it when a method returning {@code Mono} or {@code Flux} is
 * subscribed; the calls it does not claim run as bean calls.
 */
public interface ReactiveCallSource extends CallSource {

    /**
     * The protected call as this source runs it, or {@code null} when it is not this source's.
     *
     * @param many whether the method returns a {@code Flux}
     */
    @Nullable
    Publisher<?> bind(ProtectedInvocation call, ContextView context, boolean many);
}

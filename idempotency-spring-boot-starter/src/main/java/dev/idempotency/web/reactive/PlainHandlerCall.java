package dev.idempotency.web.reactive;

import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.ProtectedInvocation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The call of a WebFlux handler that returns a plain value ({@code T}, {@code ResponseEntity<T>}): it runs admitted or
 * replayed like a reactive handler, blocking for Redis on the executor WebFlux runs such handlers on
 * ({@link BlockingHandlers}). On an event-loop thread it refuses to block and says how to fix it. Handlers returning a
 * {@link Mono} or a {@code Flux} are claimed when subscribed instead ({@link WebFluxExchangeFlow#bind}).
 */
final class PlainHandlerCall {

    private PlainHandlerCall() {}

    /** The flow of {@code call} when it is the plain-valued handler of the current exchange, else {@code null}. */
    static @Nullable InvocationFlow select(WebFluxExchangeFlow flow, ProtectedInvocation call) {
        ExchangeState state = CurrentExchange.get();
        if (state == null
                || !BlockingHandlers.returnsPlainValue(call.spec().method())
                || !WebFluxExchangeFlow.isHandler(state.exchange(), call)) {
            return null;
        }
        if (Schedulers.isInNonBlockingThread()) {
            throw new IllegalStateException("@Idempotent handler " + call.spec().name()
                    + " returns a plain value but runs on a non-blocking thread, where waiting for Redis would stall"
                    + " the event loop; return a Mono, or let WebFlux run it on a blocking executor"
                    + " (WebFluxConfigurer#configureBlockingExecution covering this method)");
        }
        return protectedCall -> flow.runBlocking(protectedCall, state);
    }
}

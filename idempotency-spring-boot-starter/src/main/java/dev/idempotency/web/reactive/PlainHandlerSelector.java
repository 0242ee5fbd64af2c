package dev.idempotency.web.reactive;

import dev.idempotency.internal.operation.FlowSelector;
import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.ProtectedInvocation;
import org.jspecify.annotations.Nullable;
import reactor.core.scheduler.Schedulers;

/**
 * Claims the call of a WebFlux handler that returns a plain value ({@code T}, {@code ResponseEntity<T>}): it runs
 * admitted or replayed like a reactive handler, blocking for Redis on the executor WebFlux runs such handlers on
 * ({@link BlockingHandlers}). On an event-loop thread it refuses to block and says how to fix it.
 */
final class PlainHandlerSelector implements FlowSelector {

    private final WebFluxExchangeFlow flow;

    PlainHandlerSelector(WebFluxExchangeFlow flow) {
        this.flow = flow;
    }

    @Override
    public @Nullable InvocationFlow select(ProtectedInvocation call) {
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

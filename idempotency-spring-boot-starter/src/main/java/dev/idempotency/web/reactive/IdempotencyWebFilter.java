package dev.idempotency.web.reactive;

import dev.idempotency.internal.http.HeldBytes;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.StoredResponse;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.reactive.Handoff;
import dev.idempotency.internal.reactive.Relay;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.filter.reactive.ServerWebExchangeContextFilter;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Gives every exchange an {@link ExchangeState} in its Reactor context, its request a {@link ReceivedBodyRequest} and
 * its response a {@link RecordingResponse}.
 * The innermost filter, so that filters which transform responses run around it both when a response is stored and
 * when it is replayed. After the handler: a duplicate whose handler wrote nothing gets the stored response now, and a
 * held call whose handler wrote no body ({@code Mono<Void>}) is settled. An error of a held call that no
 * {@code @ExceptionHandler} answered is rendered here by the application's exception handlers (see
 * {@link HeldErrors}) and settles the call as any response does; one that nothing renders releases the claim and
 * restores the token. An error that is not the work's (its answer could not be encoded or written) does not settle
 * the call as failed: the work ran, so the key completes without a result, the token stays used, the lock is
 * released. A client that goes away once its call was admitted does not end the call: the exchange runs on, detached
 * ({@link Relay}), and its response settles the call as if the client had stayed, so a retry gets {@code 409}
 * meanwhile and then the replay, never a second execution. What follows Redis's answers goes on on the exchange's
 * event loop ({@link Handoff}).
 */
final class IdempotencyWebFilter implements WebFilter, Ordered {

    private final ReplayedHeaders replayedHeaders;
    private final long maxResponseBytes;
    private final HeldBytes budget;
    private final HeldErrors heldErrors;
    private final OperationRegistry operations;

    IdempotencyWebFilter(
            ReplayedHeaders replayedHeaders,
            long maxResponseBytes,
            HeldBytes budget,
            HeldErrors heldErrors,
            OperationRegistry operations) {
        this.replayedHeaders = replayedHeaders;
        this.maxResponseBytes = maxResponseBytes;
        this.budget = budget;
        this.heldErrors = heldErrors;
        this.operations = operations;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        return Mono.deferContextual(context -> {
            ExchangeState state =
                    new ExchangeState(replayedHeaders, maxResponseBytes, budget, operations, context, Handoff.here());
            ServerHttpResponse response = exchange.getResponse();
            ServerWebExchange recorded = exchange.mutate()
                    .request(new ReceivedBodyRequest(exchange.getRequest(), exchange.getAttributes(), operations))
                    .response(new RecordingResponse(response, state))
                    .build();
            state.attach(recorded);
            Mono<Void> handled = chain.filter(recorded)
                    .onErrorResume(error -> renderHeld(state, recorded, error))
                    .then(Mono.defer(() -> afterHandler(state, response)))
                    .doOnError(state::abandon)
                    .contextWrite(inner -> inner.put(ExchangeState.KEY, state)
                            .put(ServerWebExchangeContextFilter.EXCHANGE_CONTEXT_ATTRIBUTE, recorded));
            return Relay.run(handled.flux(), context, state::clientLeft).then();
        });
    }

    /**
     * An error of a held call is rendered here, so that its response is recorded and settles the call. An error that
     * is not the work's came from delivering its answer (an encoder's): the call is settled as undelivered first, and
     * the rendered error only tells the client.
     */
    private Mono<Void> renderHeld(ExchangeState state, ServerWebExchange recorded, Throwable error) {
        if (state.pending() == null) {
            return Mono.error(error);
        }
        if (!state.workFailed()) {
            return state.undelivered(recorded.getResponse(), error).then(heldErrors.render(recorded, error));
        }
        return heldErrors.render(recorded, error);
    }

    private static Mono<Void> afterHandler(ExchangeState state, ServerHttpResponse response) {
        StoredResponse replay = state.takeReplay();
        if (replay != null) {
            byte[] body = ExchangeState.applyReplay(response, replay);
            return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
        }
        return state.settle(response, new byte[0], "");
    }
}

package dev.idempotency.web.reactive;

import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.StoredResponse;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.filter.reactive.ServerWebExchangeContextFilter;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Gives every exchange an {@link ExchangeState} in its Reactor context, and its response a {@link RecordingResponse}.
 * The innermost filter, so that filters which transform responses run around it both when a response is stored and
 * when it is replayed. After the handler: a duplicate whose handler wrote nothing gets the stored response now, and a
 * held call whose handler wrote no body ({@code Mono<Void>}) is settled; an error that no exception handler answered,
 * or a cancelled exchange, releases the claim and restores the token.
 */
final class IdempotencyWebFilter implements WebFilter, Ordered {

    private final ReplayedHeaders replayedHeaders;
    private final long maxResponseBytes;

    IdempotencyWebFilter(ReplayedHeaders replayedHeaders, long maxResponseBytes) {
        this.replayedHeaders = replayedHeaders;
        this.maxResponseBytes = maxResponseBytes;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        return Mono.deferContextual(context -> {
            ExchangeState state = new ExchangeState(replayedHeaders, maxResponseBytes, context);
            ServerHttpResponse response = exchange.getResponse();
            ServerWebExchange recorded = exchange.mutate()
                    .response(new RecordingResponse(response, state))
                    .build();
            state.attach(recorded);
            return chain.filter(recorded)
                    .then(Mono.defer(() -> afterHandler(state, response)))
                    .doOnError(state::abandon)
                    .doOnCancel(() -> state.abandon(null))
                    .contextWrite(inner -> inner.put(ExchangeState.KEY, state)
                            .put(ServerWebExchangeContextFilter.EXCHANGE_CONTEXT_ATTRIBUTE, recorded));
        });
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

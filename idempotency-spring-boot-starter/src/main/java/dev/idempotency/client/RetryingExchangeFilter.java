package dev.idempotency.client;

import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * The WebClient twin of {@link RetryingRequestInterceptor}: same key on every attempt, same {@link RetryRules}, and it
 * never blocks: the wait between attempts is a {@link ReactiveSleeper}, Reactor's timer unless a test records it.
 */
final class RetryingExchangeFilter implements ExchangeFilterFunction {

    private final RetryRules rules;
    private final CallOutcomes outcomes;
    private final ReactiveSleeper sleeper;

    RetryingExchangeFilter(RetryRules rules, CallOutcomes outcomes, ReactiveSleeper sleeper) {
        this.rules = rules;
        this.outcomes = outcomes;
        this.sleeper = sleeper;
    }

    @Override
    public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
        if (!rules.keys(request.method(), request.url())) {
            return next.exchange(request);
        }
        if (!rules.retries(request.url())) {
            return Mono.deferContextual(context -> next.exchange(keyed(request, context)));
        }
        return Mono.deferContextual(context -> attempt(keyed(request, context), next, 1));
    }

    /** The caller's key, else one bound in the Reactor context, else a new one; made once for all attempts. */
    private ClientRequest keyed(ClientRequest request, ContextView context) {
        if (request.headers().containsHeader(rules.header())) {
            return request;
        }
        String bound = context.getOrDefault(IdempotencyKeys.CONTEXT_KEY, null);
        return ClientRequest.from(request)
                .header(rules.header(), bound != null ? bound : IdempotencyKeys.newKey())
                .build();
    }

    private Mono<ClientResponse> attempt(ClientRequest request, ExchangeFunction next, int attempt) {
        boolean last = attempt >= rules.maxAttempts();
        return next.exchange(request)
                .flatMap(response -> judge(request, response))
                // Connect and I/O failures of the exchange; the request may have reached the server.
                .onErrorResume(
                        WebClientRequestException.class,
                        ex -> Mono.just(new Attempt(null, ex, rules.retryable(ex), null)))
                .flatMap(result -> {
                    if (!result.retryable() || last) {
                        outcomes.record(CallOutcome.of(attempt, result.retryable()));
                        return result.answer();
                    }
                    return result.discard()
                            .then(sleeper.sleep(rules.delay(attempt, result.retryAfter())))
                            .then(Mono.defer(() -> attempt(request, next, attempt + 1)));
                });
    }

    /** Reads the status, and for a 409 the problem type; the response passed on still has its whole body. */
    private Mono<Attempt> judge(ClientRequest request, ClientResponse response) {
        int status = response.statusCode().value();
        String retryAfter = response.headers().asHttpHeaders().getFirst(HttpHeaders.RETRY_AFTER);
        boolean large = response.headers().contentLength().orElse(0) > RetryRules.MAX_PROBLEM_BYTES;
        if (large
                || !rules.needsProblemType(
                        status, response.headers().contentType().orElse(null))) {
            return Mono.just(new Attempt(response, null, rules.retryable(status, null), retryAfter));
        }
        return BufferedClientResponse.read(response, RetryRules.MAX_PROBLEM_BYTES)
                .map(read -> {
                    byte[] body = read.body();
                    String problemType = body != null ? rules.problemType(body) : null;
                    return new Attempt(read.response(), null, rules.retryable(status, problemType), retryAfter);
                })
                // The connection failed mid-body: an I/O error of the exchange like any other, and reported as one.
                .onErrorMap(
                        ex -> new WebClientRequestException(ex, request.method(), request.url(), request.headers()));
    }

    /** One attempt's end: a response, or the error of an exchange that failed. */
    private record Attempt(
            @Nullable ClientResponse response,
            @Nullable Throwable error,
            boolean retryable,
            @Nullable String retryAfter) {

        Mono<ClientResponse> answer() {
            return response != null ? Mono.just(response) : Mono.error(Objects.requireNonNull(error));
        }

        Mono<Void> discard() {
            return response != null ? response.releaseBody() : Mono.empty();
        }
    }
}

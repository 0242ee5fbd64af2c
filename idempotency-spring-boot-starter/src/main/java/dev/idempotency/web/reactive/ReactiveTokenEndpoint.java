package dev.idempotency.web.reactive;

import dev.idempotency.internal.operation.Protection;
import dev.idempotency.internal.reactive.ReactiveCalls;
import dev.idempotency.scope.ReactiveScopeResolver;
import dev.idempotency.token.TokenExecutor;
import dev.idempotency.web.TokenResponse;
import java.time.Duration;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import reactor.core.publisher.Mono;

/**
 * Issues one-time tokens on WebFlux, as the Spring MVC endpoint does: {@code POST ${idempotency.token.endpoint.path}}
 * answers {@code 201} with the token, the header to send it in and its lifetime, bound to the caller's scope.
 */
final class ReactiveTokenEndpoint {

    private final TokenExecutor tokens;
    private final Protection protection;
    private final ReactiveScopeResolver scopes;
    private final String header;
    private final Duration ttl;

    ReactiveTokenEndpoint(
            TokenExecutor tokens, Protection protection, ReactiveScopeResolver scopes, String header, Duration ttl) {
        this.tokens = tokens;
        this.protection = protection;
        this.scopes = scopes;
        this.header = header;
        this.ttl = ttl;
    }

    @ResponseBody
    @ResponseStatus(HttpStatus.CREATED)
    public Mono<TokenResponse> issue() {
        return ReactiveCalls.scope(protection, scopes)
                .flatMap(scope -> Mono.fromFuture(() -> tokens.issueAsync(scope, ttl)))
                .map(issued -> new TokenResponse(
                        issued.token(), header, issued.expiresIn().toSeconds()));
    }
}

package dev.idempotency.web.reactive;

import dev.idempotency.internal.http.TokenIssuer;
import dev.idempotency.internal.http.TokenOperations;
import dev.idempotency.internal.operation.Protection;
import dev.idempotency.scope.ReactiveScopeResolver;
import dev.idempotency.web.TokenResponse;
import java.net.InetSocketAddress;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Issues one-time tokens on WebFlux, as the Spring MVC endpoint does: {@code POST ${idempotency.token.endpoint.path}}
 * answers {@code 201} with the token, the header to send it in and its lifetime, bound to the caller's scope and
 * bounded per caller and in all ({@link TokenIssuer}).
 */
final class ReactiveTokenEndpoint {

    private final TokenIssuer issuer;
    private final Protection protection;
    private final ReactiveScopeResolver scopes;
    private final TokenOperations operations;

    ReactiveTokenEndpoint(
            TokenIssuer issuer, Protection protection, ReactiveScopeResolver scopes, TokenOperations operations) {
        this.issuer = issuer;
        this.protection = protection;
        this.scopes = scopes;
        this.operations = operations;
    }

    @ResponseBody
    @ResponseStatus(HttpStatus.CREATED)
    public Mono<TokenResponse> issue(ServerWebExchange exchange) {
        InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
        String address = remote == null || remote.getAddress() == null
                ? "unknown"
                : remote.getAddress().getHostAddress();
        return scopes.currentScope()
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .flatMap(caller -> Mono.defer(() -> Mono.fromFuture(issuer.issue(
                        caller.orElse(null),
                        protection.scopeOf(caller.orElse(null)),
                        address,
                        exchange.getRequest().getQueryParams().getFirst(TokenOperations.PARAMETER),
                        operations))));
    }
}

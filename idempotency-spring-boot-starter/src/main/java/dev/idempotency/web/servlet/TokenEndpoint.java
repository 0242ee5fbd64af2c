package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.TokenIssuer;
import dev.idempotency.internal.http.TokenOperations;
import dev.idempotency.internal.operation.Protection;
import dev.idempotency.spi.Futures;
import dev.idempotency.web.TokenResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * Issues one-time tokens: {@code POST ${idempotency.token.endpoint.path}} answers {@code 201} with the token, the header
 * to send it in and its lifetime. Tokens are bound to the caller's scope (the user with {@code scope: principal}), and
 * bounded per caller and in all ({@link TokenIssuer}): past a bound, {@code 429} with {@code Retry-After}. Mapped by
 * {@link TokenEndpointRegistrar} only when the application uses tokens. Public so that the API documentation can
 * recognise the handler; only this package creates one.
 */
public final class TokenEndpoint {

    private final TokenIssuer issuer;
    private final Protection protection;
    private final TokenOperations operations;

    TokenEndpoint(TokenIssuer issuer, Protection protection, TokenOperations operations) {
        this.issuer = issuer;
        this.protection = protection;
        this.operations = operations;
    }

    @ResponseBody
    @ResponseStatus(HttpStatus.CREATED)
    public TokenResponse issue(HttpServletRequest request) {
        String caller = protection.resolvedScope();
        return Futures.join(issuer.issue(
                caller,
                protection.scopeOf(caller),
                request.getRemoteAddr(),
                request.getParameter(TokenOperations.PARAMETER),
                operations));
    }
}

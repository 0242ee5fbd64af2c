package dev.idempotency.web.servlet;

import dev.idempotency.internal.operation.Protection;
import dev.idempotency.token.IssuedToken;
import dev.idempotency.token.TokenExecutor;
import dev.idempotency.web.TokenResponse;
import java.time.Duration;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * Issues one-time tokens: {@code POST ${idempotency.token.endpoint.path}} answers {@code 201} with the token, the header
 * to send it in and its lifetime. Tokens are bound to the caller's scope (the user with {@code scope: principal}).
 * Mapped by {@link TokenEndpointRegistrar} only when the application uses tokens. Public so that the API documentation can
 * recognise the handler; only this package creates one.
 */
public final class TokenEndpoint {

    private final TokenExecutor tokens;
    private final Protection protection;
    private final String header;
    private final Duration ttl;

    TokenEndpoint(TokenExecutor tokens, Protection protection, String header, Duration ttl) {
        this.tokens = tokens;
        this.protection = protection;
        this.header = header;
        this.ttl = ttl;
    }

    @ResponseBody
    @ResponseStatus(HttpStatus.CREATED)
    public TokenResponse issue() {
        IssuedToken issued = tokens.issue(protection.currentScope(), ttl);
        return new TokenResponse(issued.token(), header, issued.expiresIn().toSeconds());
    }
}

package dev.idempotency.web;

import dev.idempotency.aop.ScopeResolver;
import dev.idempotency.token.IssuedToken;
import dev.idempotency.token.TokenStore;
import java.time.Duration;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Issues one-time tokens: {@code POST ${idempotency.token.endpoint.path}} answers {@code 201} with the token, the header
 * to send it in and its lifetime. Tokens are bound to the caller's scope (the user with {@code scope: principal}).
 */
@RestController
public class TokenEndpoint {

    private final TokenStore tokens;
    private final ScopeResolver scopes;
    private final String header;
    private final Duration ttl;

    public TokenEndpoint(TokenStore tokens, ScopeResolver scopes, String header, Duration ttl) {
        this.tokens = tokens;
        this.scopes = scopes;
        this.header = header;
        this.ttl = ttl;
    }

    @PostMapping(path = "${idempotency.token.endpoint.path:/idempotency/tokens}", produces = "application/json")
    @ResponseStatus(HttpStatus.CREATED)
    public TokenResponse issue() {
        IssuedToken issued = tokens.issue(scopes.scope(), ttl);
        return new TokenResponse(issued.token(), header, issued.expiresIn().toSeconds());
    }

    /**
     * The body of a token response.
     *
     * @param token the one-time token
     * @param header the header to send it in
     * @param expiresInSeconds its lifetime
     */
    public record TokenResponse(String token, String header, long expiresInSeconds) {}
}

package dev.idempotency.internal.http;

import dev.idempotency.AnonymousCallerException;
import dev.idempotency.UnknownOperationException;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.token.IssueQuota;
import dev.idempotency.token.TokenExecutor;
import dev.idempotency.web.TokenResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * What the token endpoints of both stacks do: refuse anonymous callers when told to, check the operation the token is
 * asked for ({@link TokenOperations}), count the token against the caller's bound and the application's
 * ({@link IssueQuota}; an anonymous caller is counted by its address) and issue it bound to the caller's scope and
 * that operation, in one round trip when the quota and the tokens share a Redis.
 */
public final class TokenIssuer {

    private final TokenExecutor tokens;
    private final IssueQuota quota;
    private final StoreListener listener;
    private final String header;
    private final Duration ttl;
    private final boolean anonymous;

    /**
     * @param header the header a submit sends the token in, told to the client
     * @param anonymous whether anonymous callers get tokens
     */
    public TokenIssuer(
            TokenExecutor tokens,
            IssueQuota quota,
            StoreListener listener,
            String header,
            Duration ttl,
            boolean anonymous) {
        this.tokens = tokens;
        this.quota = quota;
        this.listener = listener;
        this.header = header;
        this.ttl = ttl;
        this.anonymous = anonymous;
    }

    /**
     * @param caller the caller as the scope resolver named it, {@code null} when anonymous
     * @param scope the scope the token is bound to
     * @param address the client's address, which an anonymous caller is counted by
     * @param operation the operation the token is for, as the client named it
     * @param operations the operations a token can be issued for
     */
    public CompletableFuture<TokenResponse> issue(
            @Nullable String caller,
            String scope,
            String address,
            @Nullable String operation,
            TokenOperations operations) {
        if (caller == null && !anonymous) {
            listener.onTokenRefused("anonymous");
            return CompletableFuture.failedFuture(new AnonymousCallerException(
                    "Tokens are issued to authenticated callers only (idempotency.token.endpoint.anonymous: false)"));
        }
        String known;
        try {
            known = operations.require(operation);
        } catch (UnknownOperationException ex) {
            listener.onTokenRefused("operation");
            return CompletableFuture.failedFuture(ex);
        }
        return tokens.issueAsync(scope, known, ttl, quota, caller != null ? caller : "address:" + address)
                .thenApply(issued -> new TokenResponse(
                        issued.token(), header, issued.expiresIn().toSeconds()));
    }
}

package dev.idempotency.bench.app;

import dev.idempotency.autoconfigure.IdempotencyProperties;
import dev.idempotency.scope.ScopeResolver;
import dev.idempotency.token.IssuedToken;
import dev.idempotency.token.TokenExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Issues many one-time tokens at once, before a {@code /token} run, so the load driver consumes tokens that exist
 * (issuing them one HTTP call at a time would take longer than the run). Bench-only: not part of the starter.
 */
@RestController
public class TokenSupplyController {

    /** Upper bound of one call, so a typo cannot fill Redis. */
    static final int MAX_COUNT = 2_000_000;

    /** Tokens issued at once: the issues are pipelined on the shared connection, a batch at a time. */
    private static final int BATCH = 1_024;

    private final TokenExecutor tokens;
    private final ScopeResolver scopes;
    private final IdempotencyProperties properties;

    TokenSupplyController(TokenExecutor tokens, ScopeResolver scopes, IdempotencyProperties properties) {
        this.tokens = tokens;
        this.scopes = scopes;
        this.properties = properties;
    }

    /**
     * {@code count} fresh tokens, one per line, issued through {@link TokenExecutor#issueAsync} in the caller's scope
     * (an anonymous caller's is the shared one, as with {@code idempotency.anonymous: shared}).
     */
    @PostMapping(path = "/bench/tokens", produces = MediaType.TEXT_PLAIN_VALUE)
    public String issue(@RequestParam int count) {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("count must be between 1 and " + MAX_COUNT);
        }
        String resolved = scopes.currentScope();
        String scope = resolved == null ? "" : resolved;
        Duration ttl = properties.getToken().getTtl();
        StringBuilder lines = new StringBuilder(count * 33);
        List<CompletableFuture<IssuedToken>> batch = new ArrayList<>(BATCH);
        for (int issued = 0; issued < count; issued += batch.size()) {
            batch.clear();
            for (int i = 0; i < Math.min(BATCH, count - issued); i++) {
                batch.add(tokens.issueAsync(scope, "POST " + EchoEndpoints.TOKEN, ttl));
            }
            for (CompletableFuture<IssuedToken> token : batch) {
                lines.append(token.join().token()).append('\n');
            }
        }
        return lines.toString();
    }
}

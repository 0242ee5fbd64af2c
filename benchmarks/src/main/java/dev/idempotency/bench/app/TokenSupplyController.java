package dev.idempotency.bench.app;

import dev.idempotency.aop.ScopeResolver;
import dev.idempotency.autoconfigure.IdempotencyProperties;
import dev.idempotency.token.TokenStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

    private static final int ISSUERS = 8;

    private final TokenStore tokens;
    private final ScopeResolver scopes;
    private final IdempotencyProperties properties;

    TokenSupplyController(TokenStore tokens, ScopeResolver scopes, IdempotencyProperties properties) {
        this.tokens = tokens;
        this.scopes = scopes;
        this.properties = properties;
    }

    /** {@code count} fresh tokens, one per line, issued through {@link TokenStore#issue} in the caller's scope. */
    @PostMapping(path = "/bench/tokens", produces = MediaType.TEXT_PLAIN_VALUE)
    public String issue(@RequestParam int count) throws InterruptedException, ExecutionException {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("count must be between 1 and " + MAX_COUNT);
        }
        String scope = scopes.scope();
        ExecutorService pool = Executors.newFixedThreadPool(ISSUERS);
        try {
            List<Future<StringBuilder>> parts = new ArrayList<>();
            for (int i = 0; i < ISSUERS; i++) {
                int share = count / ISSUERS + (i < count % ISSUERS ? 1 : 0);
                parts.add(pool.submit(() -> issueMany(scope, share)));
            }
            StringBuilder all = new StringBuilder(count * 33);
            for (Future<StringBuilder> part : parts) {
                all.append(part.get());
            }
            return all.toString();
        } finally {
            pool.shutdownNow();
        }
    }

    private StringBuilder issueMany(String scope, int count) {
        StringBuilder lines = new StringBuilder(count * 33);
        for (int i = 0; i < count; i++) {
            lines.append(tokens.issue(scope, properties.getToken().getTtl()).token())
                    .append('\n');
        }
        return lines;
    }
}

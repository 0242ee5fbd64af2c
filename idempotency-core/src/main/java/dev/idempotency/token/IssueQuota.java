package dev.idempotency.token;

import dev.idempotency.TokenLimitExceededException;
import java.util.concurrent.CompletableFuture;

/**
 * Bounds how many one-time tokens are issued per window: to one caller, and in all, across every instance of the
 * application. Each issued token lives in the store for {@code token.ttl}, so an endpoint that issues them without a
 * bound lets anyone fill the store. Get one from {@link dev.idempotency.redis.RedisIdempotency#issueQuota}.
 */
@FunctionalInterface
public interface IssueQuota {

    /**
     * Counts one token for {@code caller}; completes exceptionally with {@link TokenLimitExceededException} when a
     * bound is passed.
     */
    CompletableFuture<Void> take(String caller);
}

package dev.idempotency.internal.token;

import dev.idempotency.TokenLimitExceededException;
import dev.idempotency.internal.redis.LuaScript;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.token.IssueQuota;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.util.Assert;

/**
 * Bounds how many one-time tokens are issued per window: to one caller, and in all. Each issued token is a Redis key
 * that lives for {@code token.ttl}, so an endpoint that issues them without a bound lets anyone fill Redis (and, under
 * {@code maxmemory-policy noeviction}, turn every protected call into a 503). Fixed windows counted in Redis, so that
 * the bound holds across all instances of the application.
 */
public final class RedisIssueQuota implements IssueQuota {

    /** KEYS[1] counter; ARGV[1] window ms. Counts one more and answers {count, milliseconds left in the window}. */
    private static final LuaScript COUNT = LuaScript.of("""
            local count = redis.call('INCR', KEYS[1])
            local left = redis.call('PTTL', KEYS[1])
            if left < 0 then
              redis.call('PEXPIRE', KEYS[1], ARGV[1])
              left = tonumber(ARGV[1])
            end
            return {count, left}
            """);

    private static final String TOTAL = "*";

    private final RedisGateway redis;
    private final RedisKeys keys;
    private final int perCaller;
    private final int total;
    private final byte[] window;

    /**
     * @param perCaller tokens one caller may get per window; 0 for no bound
     * @param total tokens the application may issue per window; 0 for no bound
     */
    public RedisIssueQuota(RedisGateway redis, RedisKeys keys, int perCaller, int total, Duration window) {
        Assert.isTrue(perCaller >= 0 && total >= 0, "bounds must not be negative");
        Assert.isTrue(!window.isNegative() && !window.isZero(), "window must be positive");
        this.redis = redis;
        this.keys = keys;
        this.perCaller = perCaller;
        this.total = total;
        this.window = RedisGateway.bytes(Long.toString(window.toMillis()));
    }

    @Override
    public CompletableFuture<Void> take(String caller) {
        CompletableFuture<List<Long>> mine = perCaller == 0 ? unbounded() : count(keys.tokenIssues(caller));
        CompletableFuture<List<Long>> all = total == 0 ? unbounded() : count(keys.tokenIssues(TOTAL));
        return mine.thenCombine(all, (forCaller, everyone) -> {
            if (perCaller > 0 && forCaller.get(0) > perCaller) {
                throw refused("caller", "this caller", perCaller, forCaller.get(1));
            }
            if (total > 0 && everyone.get(0) > total) {
                throw refused("total", "this application", total, everyone.get(1));
            }
            return null;
        });
    }

    private TokenLimitExceededException refused(String reason, String who, int bound, long millisLeft) {
        redis.listener().onTokenRefused(reason);
        return new TokenLimitExceededException(
                "Too many tokens for " + who + ": at most " + bound + " per window; try again later",
                Duration.ofMillis(millisLeft));
    }

    private CompletableFuture<List<Long>> count(String key) {
        return redis.eval("issue_count", COUNT, ScriptOutputType.MULTI, new byte[][] {RedisGateway.bytes(key)}, window);
    }

    private static CompletableFuture<List<Long>> unbounded() {
        return CompletableFuture.completedFuture(List.of(0L, 0L));
    }
}

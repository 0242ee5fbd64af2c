package dev.idempotency.internal.token;

import dev.idempotency.TokenLimitExceededException;
import dev.idempotency.internal.memory.Keyspace;
import dev.idempotency.internal.memory.Keyspace.Change;
import dev.idempotency.internal.memory.Keyspace.Value;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.token.IssueQuota;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * The token issue bounds of {@link RedisIssueQuota} counted in this JVM's memory: fixed windows, one counter per
 * caller and one for all, each a key of a {@link Keyspace} that expires with its window. One instance only.
 */
public final class MemoryIssueQuota implements IssueQuota {

    private static final String TOTAL = "*";

    private final Keyspace keyspace;
    private final RedisKeys keys;
    private final StoreListener listener;
    private final int perCaller;
    private final int total;
    private final Duration window;

    /**
     * @param perCaller tokens one caller may get per window; 0 for no bound
     * @param total tokens the application may issue per window; 0 for no bound
     */
    public MemoryIssueQuota(
            Keyspace keyspace, RedisKeys keys, StoreListener listener, int perCaller, int total, Duration window) {
        Assert.isTrue(perCaller >= 0 && total >= 0, "bounds must not be negative");
        Assert.isTrue(!window.isNegative() && !window.isZero(), "window must be positive");
        this.keyspace = keyspace;
        this.keys = keys;
        this.listener = listener;
        this.perCaller = perCaller;
        this.total = total;
        this.window = window;
    }

    /** Counts one for {@code caller} and one for all (both, as the Redis quota does), then checks the bounds. */
    @Override
    public CompletableFuture<Void> take(String caller) {
        @Nullable Value forCaller = perCaller == 0 ? null : count(keys.tokenIssues(caller));
        @Nullable Value forAll = total == 0 ? null : count(keys.tokenIssues(TOTAL));
        if (forCaller != null && countOf(forCaller) > perCaller) {
            return CompletableFuture.failedFuture(refused("caller", "this caller", perCaller, forCaller));
        }
        if (forAll != null && countOf(forAll) > total) {
            return CompletableFuture.failedFuture(refused("total", "this application", total, forAll));
        }
        return CompletableFuture.completedFuture(null);
    }

    /** One more in the current window of {@code key}, which starts with its first count. */
    private Value count(String key) {
        return keyspace.change("issue_count", key, live -> {
            Value next = live == null ? Value.expiringIn(bytes(1), window) : live.withBytes(bytes(countOf(live) + 1));
            return new Change<>(next, next);
        });
    }

    private TokenLimitExceededException refused(String reason, String who, int bound, Value counted) {
        listener.onTokenRefused(reason);
        return new TokenLimitExceededException(
                "Too many tokens for " + who + ": at most " + bound + " per window; try again later",
                Duration.ofMillis(counted.millisLeft()));
    }

    private static long countOf(Value counted) {
        return Long.parseLong(new String(counted.bytes(), StandardCharsets.US_ASCII));
    }

    private static byte[] bytes(long count) {
        return Long.toString(count).getBytes(StandardCharsets.US_ASCII);
    }
}

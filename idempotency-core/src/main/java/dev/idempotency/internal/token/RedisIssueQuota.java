package dev.idempotency.internal.token;

import dev.idempotency.TokenLimitExceededException;
import dev.idempotency.internal.redis.LuaScript;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.token.IssueQuota;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * Bounds how many one-time tokens are issued per window: to one caller, and in all. Each issued token is a Redis key
 * that lives for {@code token.ttl}, so an endpoint that issues them without a bound lets anyone fill Redis (and, under
 * {@code maxmemory-policy noeviction}, turn every protected call into a 503). Fixed windows counted in Redis, so that
 * the bound holds across all instances of the application. Every request is counted, refused or not.
 *
 * <p>{@link #issue} counts and stores a token in one round trip: one script over the counters and the token on a
 * standalone or Sentinel Redis; on a cluster, where the keys live in different slots, the counts and the token's
 * {@code SET} sent together (pipelined), and the token deleted again in the rare case a bound refused it.
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

    /**
     * KEYS[1] the token; KEYS[2..n] the counters it counts against. ARGV[1] the token's value, ARGV[2] its time to live
     * in ms, ARGV[3] the window in ms, ARGV[i + 2] the bound of KEYS[i]. Counts the token on every counter (as
     * {@link #COUNT} does); stores it only when no bound is passed. Answers {0, 0} when stored, else {i - 1, ms left in
     * that counter's window} for the first counter KEYS[i] whose bound was passed.
     */
    private static final LuaScript COUNT_AND_SET = LuaScript.of("""
            local refused, left = 0, 0
            for i = 2, #KEYS do
              local count = redis.call('INCR', KEYS[i])
              local ttl = redis.call('PTTL', KEYS[i])
              if ttl < 0 then
                redis.call('PEXPIRE', KEYS[i], ARGV[3])
                ttl = tonumber(ARGV[3])
              end
              if refused == 0 and count > tonumber(ARGV[i + 2]) then
                refused, left = i - 1, ttl
              end
            end
            if refused == 0 then
              redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
            end
            return {refused, left}
            """);

    private static final String TOTAL = "*";
    private static final List<Long> COUNTED = List.of(0L, 0L);

    private final RedisGateway redis;
    private final RedisKeys keys;
    private final int perCaller;
    private final int total;
    private final byte[] window;
    private final byte[] totalKey;
    private final byte[] perCallerBound;
    private final byte[] totalBound;

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
        this.totalKey = RedisGateway.bytes(keys.tokenIssues(TOTAL));
        this.perCallerBound = RedisGateway.bytes(Integer.toString(perCaller));
        this.totalBound = RedisGateway.bytes(Integer.toString(total));
    }

    @Override
    public CompletableFuture<Void> take(String caller) {
        byte @Nullable [] callerKey = perCaller == 0 ? null : callerKey(caller);
        CompletableFuture<List<Long>> mine = callerKey == null ? unbounded() : count(callerKey);
        CompletableFuture<List<Long>> all = total == 0 ? unbounded() : count(totalKey);
        return mine.thenCombine(all, (forCaller, everyone) -> verdict(forCaller, everyone, callerKey != null))
                .thenAccept(verdict -> enforce(verdict, callerKey != null));
    }

    /** Whether this quota counts in the Redis behind {@code gateway}, so that {@link #issue} may store tokens there. */
    boolean countsIn(RedisGateway gateway) {
        return redis == gateway;
    }

    /**
     * Counts one token for {@code caller} and stores it under {@code key} with {@code value} for {@code ttl}, in one
     * round trip; completes exceptionally with {@link TokenLimitExceededException}, having stored nothing (or deleted
     * it again), when a bound is passed.
     */
    CompletableFuture<Void> issue(String caller, byte[] key, byte[] value, Duration ttl) {
        if (perCaller == 0 && total == 0) {
            return redis.call("issue", commands -> commands.set(key, value, SetArgs.Builder.px(ttl.toMillis())))
                    .thenApply(ok -> null);
        }
        byte @Nullable [] callerKey = perCaller == 0 ? null : callerKey(caller);
        return redis.<List<Long>>call(
                        "issue",
                        commands -> commands instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]>
                                ? pipelined(commands, callerKey, key, value, ttl)
                                : countAndSet(commands, callerKey, key, value, ttl))
                .thenAccept(verdict -> enforce(verdict, callerKey != null));
    }

    /** Standalone and Sentinel: the counters and the token in one script. */
    private CompletionStage<List<Long>> countAndSet(
            RedisClusterAsyncCommands<byte[], byte[]> commands,
            byte @Nullable [] callerKey,
            byte[] key,
            byte[] value,
            Duration ttl) {
        List<byte[]> scriptKeys = new ArrayList<>(3);
        List<byte[]> args = new ArrayList<>(5);
        scriptKeys.add(key);
        args.add(value);
        args.add(RedisGateway.bytes(Long.toString(ttl.toMillis())));
        args.add(window);
        if (callerKey != null) {
            scriptKeys.add(callerKey);
            args.add(perCallerBound);
        }
        if (total > 0) {
            scriptKeys.add(totalKey);
            args.add(totalBound);
        }
        return RedisGateway.eval(
                commands,
                COUNT_AND_SET,
                ScriptOutputType.MULTI,
                scriptKeys.toArray(byte[][]::new),
                args.toArray(byte[][]::new));
    }

    /**
     * Cluster: the counts and the {@code SET} sent together, so still one round trip; a token that a bound refused, or
     * whose counting failed, is deleted again before the answer. Answers as {@link #COUNT_AND_SET} does.
     */
    private CompletionStage<List<Long>> pipelined(
            RedisClusterAsyncCommands<byte[], byte[]> commands,
            byte @Nullable [] callerKey,
            byte[] key,
            byte[] value,
            Duration ttl) {
        CompletableFuture<List<Long>> mine = callerKey == null ? unbounded() : count(commands, callerKey);
        CompletableFuture<List<Long>> all = total == 0 ? unbounded() : count(commands, totalKey);
        CompletableFuture<String> stored =
                commands.set(key, value, SetArgs.Builder.px(ttl.toMillis())).toCompletableFuture();
        CompletableFuture<List<Long>> verdict = CompletableFuture.allOf(mine, all, stored)
                .thenApply(sent -> verdict(mine.join(), all.join(), callerKey != null));
        return verdict.handle((counted, failure) -> failure == null && counted.get(0) == 0)
                .thenCompose(kept -> kept
                        ? verdict
                        : commands.del(key)
                                .handle((deleted, ignored) -> verdict)
                                .thenCompose(undone -> verdict));
    }

    /**
     * Two counts as {@link #COUNT_AND_SET} answers them: {0, 0} within the bounds, else {i, ms left in the window} for
     * the first counter passed, the caller's (when counted) before the application's.
     */
    private List<Long> verdict(List<Long> forCaller, List<Long> everyone, boolean countsCaller) {
        if (countsCaller && forCaller.get(0) > perCaller) {
            return List.of(1L, forCaller.get(1));
        }
        if (total > 0 && everyone.get(0) > total) {
            return List.of(countsCaller ? 2L : 1L, everyone.get(1));
        }
        return COUNTED;
    }

    /** Throws for a refusing verdict. */
    private void enforce(List<Long> verdict, boolean countsCaller) {
        long counter = verdict.get(0);
        if (counter == 1 && countsCaller) {
            throw refused("caller", "this caller", perCaller, verdict.get(1));
        }
        if (counter > 0) {
            throw refused("total", "this application", total, verdict.get(1));
        }
    }

    private TokenLimitExceededException refused(String reason, String who, int bound, long millisLeft) {
        redis.listener().onTokenRefused(reason);
        return new TokenLimitExceededException(
                "Too many tokens for " + who + ": at most " + bound + " per window; try again later",
                Duration.ofMillis(millisLeft));
    }

    private byte[] callerKey(String caller) {
        return RedisGateway.bytes(keys.tokenIssues(caller));
    }

    private CompletableFuture<List<Long>> count(byte[] key) {
        return redis.eval("issue_count", COUNT, ScriptOutputType.MULTI, new byte[][] {key}, window);
    }

    private CompletableFuture<List<Long>> count(RedisClusterAsyncCommands<byte[], byte[]> commands, byte[] key) {
        return RedisGateway.<List<Long>>eval(commands, COUNT, ScriptOutputType.MULTI, new byte[][] {key}, window)
                .toCompletableFuture();
    }

    private static CompletableFuture<List<Long>> unbounded() {
        return CompletableFuture.completedFuture(COUNTED);
    }
}

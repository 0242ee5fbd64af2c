package dev.idempotency.internal.token;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.redis.LuaScript;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.redis.ReplicaConfirmations;
import dev.idempotency.token.IssueQuota;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Tokens in Redis: one key per token (a digest of scope and token) whose value is {@code V} while the token is valid,
 * and once a submit consumed it, {@code U} followed by that submit's mark.
 */
public final class RedisTokenStore implements TokenStore {

    static final byte[] VALID = {'V'};

    /**
     * KEYS[1] token; ARGV[1] the submit's mark. Marks a valid token used by this submit; a used token keeps the mark of
     * the submit that used it, so that only that submit can give it back. Answers the value before.
     */
    private static final LuaScript CONSUME = LuaScript.of("""
            local previous = redis.call('GET', KEYS[1])
            if previous == 'V' then
              redis.call('SET', KEYS[1], ARGV[1], 'XX', 'KEEPTTL')
            end
            return previous
            """);

    /** KEYS[1] token; ARGV[1] the consuming submit's mark. 1 when the token is valid again, 0 when it was not ours. */
    private static final LuaScript RESTORE = LuaScript.of("""
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('SET', KEYS[1], 'V', 'XX', 'KEEPTTL')
              return 1
            end
            return 0
            """);

    private final RedisGateway redis;
    private final @Nullable ReplicaConfirmations confirmations;

    /** @param confirmations with wait-for-replicas, where consumes wait for replicas; else {@code null} */
    public RedisTokenStore(RedisGateway redis, @Nullable ReplicaConfirmations confirmations) {
        this.redis = redis;
        this.confirmations = confirmations;
    }

    @Override
    public CompletableFuture<Void> issue(String key, Duration ttl) {
        return redis.call(
                        "issue",
                        commands -> commands.set(RedisGateway.bytes(key), VALID, SetArgs.Builder.px(ttl.toMillis())))
                .thenApply(ok -> null);
    }

    /** One round trip, the quota included, when the quota counts in this Redis. */
    @Override
    public CompletableFuture<Void> issue(String key, Duration ttl, IssueQuota quota, String caller) {
        if (quota instanceof RedisIssueQuota counted && counted.countsIn(redis)) {
            return counted.issue(caller, RedisGateway.bytes(key), VALID, ttl);
        }
        return TokenStore.super.issue(key, ttl, quota, caller);
    }

    /** One round trip; with wait-for-replicas, one more that waits for the replicas. */
    @Override
    public CompletableFuture<Use> consume(String key, String mark) {
        byte[] used = used(mark);
        return consume(RedisGateway.bytes(key), key, mark, used).thenApply(previous -> {
            if (previous == null) {
                return Use.UNKNOWN;
            }
            // Our own mark: the client sent the consume again after a broken connection, and it is ours.
            return Arrays.equals(previous, VALID) || Arrays.equals(previous, used) ? Use.CONSUMED : Use.USED_BEFORE;
        });
    }

    /** The value before: {@code V} when this submit consumed it, a used mark, or {@code null} when unknown. */
    private CompletableFuture<byte @Nullable []> consume(byte[] key, String textKey, String mark, byte[] used) {
        if (confirmations == null) {
            return redis.eval("consume", CONSUME, ScriptOutputType.VALUE, new byte[][] {key}, used);
        }
        // With wait-for-replicas a submit runs only once replicas know its token is used: a failover could otherwise
        // bring the token back and let a second submit run. An unconfirmed consume gives the token back.
        return confirmations
                .writeAndWait(
                        "consume",
                        key,
                        commands -> RedisGateway.<byte @Nullable []>eval(
                                commands, CONSUME, ScriptOutputType.VALUE, new byte[][] {key}, used))
                .thenCompose(confirmed -> {
                    boolean consumed = Arrays.equals(confirmed.result(), VALID);
                    if (!consumed || confirmed.acknowledged() >= confirmations.replicas()) {
                        return CompletableFuture.completedFuture(confirmed.result());
                    }
                    IdempotencyStoreUnavailableException unconfirmed = new IdempotencyStoreUnavailableException(
                            "The token's use reached " + confirmed.acknowledged() + " of " + confirmations.replicas()
                                    + " required replicas within "
                                    + confirmations.timeout().toMillis() + " ms",
                            RedisGateway.STORE_RETRY_AFTER);
                    return giveBack(textKey, mark).thenApply(givenBack -> {
                        throw unconfirmed;
                    });
                });
    }

    @Override
    public CompletableFuture<Void> restore(String key) {
        return redis.call(
                        "restore",
                        commands -> commands.set(
                                RedisGateway.bytes(key),
                                VALID,
                                SetArgs.Builder.xx().keepttl()))
                .thenApply(ok -> null);
    }

    @Override
    public CompletableFuture<Boolean> restore(String key, String mark) {
        return redis.<Long>eval(
                        "restore",
                        RESTORE,
                        ScriptOutputType.INTEGER,
                        new byte[][] {RedisGateway.bytes(key)},
                        used(mark))
                .thenApply(restored -> restored != null && restored == 1L);
    }

    /** The value of a token {@code mark}'s submit used. */
    static byte[] used(String mark) {
        return ("U" + mark).getBytes(StandardCharsets.US_ASCII);
    }
}

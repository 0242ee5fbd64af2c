package dev.idempotency.internal.token;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.redis.LuaScript;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.redis.ReplicaConfirmations;
import dev.idempotency.spi.Futures;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Token records in Redis, beside {@code RequestIdStore} and {@code LockStore}: one key per token (a digest of scope and
 * token) whose value is {@code V} while the token is valid, and once a submit consumed it, {@code U} followed by that
 * submit's own mark. The mark lets exactly that submit give the token back: when its work fails, and when it cannot
 * know whether its consume took effect (the reply was lost), so that a consume nobody ran does not use the token up.
 */
final class TokenStore {

    static final byte USED = 'U';
    private static final byte[] VALID = {'V'};
    private static final int MARK_BYTES = 9;

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

    /** How long a submit that does not know whether its consume took effect keeps trying to give the token back. */
    static final Duration GIVE_BACK_DEADLINE = Duration.ofMinutes(1);

    private static final Logger log = LoggerFactory.getLogger(TokenStore.class);
    private static final Duration FIRST_RETRY = Duration.ofMillis(50);
    private static final Duration LAST_RETRY = RedisGateway.STORE_RETRY_AFTER;

    private final RedisGateway redis;
    private final @Nullable ReplicaConfirmations confirmations;

    /** @param confirmations with wait-for-replicas, where consumes wait for replicas; else {@code null} */
    TokenStore(RedisGateway redis, @Nullable ReplicaConfirmations confirmations) {
        this.redis = redis;
        this.confirmations = confirmations;
    }

    /** A mark for one submit: {@code U} and 8 random bytes, unique among the submits of one token. */
    static byte[] newMark() {
        byte[] mark = new byte[MARK_BYTES];
        ThreadLocalRandom.current().nextBytes(mark);
        mark[0] = USED;
        return mark;
    }

    CompletableFuture<Void> issue(byte[] key, Duration ttl) {
        return redis.call("issue", commands -> commands.set(key, VALID, SetArgs.Builder.px(ttl.toMillis())))
                .thenApply(ok -> null);
    }

    /**
     * Consumes a valid token in one round trip. Answers the value before: {@code V} when this submit consumed it, a
     * used mark when another did, {@code null} when the token is unknown or expired.
     */
    CompletableFuture<byte @Nullable []> consume(byte[] key, byte[] mark) {
        if (confirmations == null) {
            return redis.eval("consume", CONSUME, ScriptOutputType.VALUE, new byte[][] {key}, mark);
        }
        // With wait-for-replicas a submit runs only once replicas know its token is used: a failover could otherwise
        // bring the token back and let a second submit run. An unconfirmed consume gives the token back.
        return confirmations
                .writeAndWait(
                        "consume",
                        key,
                        commands -> RedisGateway.<byte @Nullable []>eval(
                                commands, CONSUME, ScriptOutputType.VALUE, new byte[][] {key}, mark))
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
                    return giveBack(key, mark).thenApply(givenBack -> {
                        throw unconfirmed;
                    });
                });
    }

    /** Makes a consumed token valid again, whoever consumed it; an expired token stays expired. */
    CompletableFuture<Void> restore(byte[] key) {
        return redis.call(
                        "restore",
                        commands ->
                                commands.set(key, VALID, SetArgs.Builder.xx().keepttl()))
                .thenApply(ok -> null);
    }

    /**
     * Gives the token back if {@code mark}'s submit is the one that used it: when its work failed, and when its consume
     * failed without an answer (the reply was lost, or came too late: the submit is answered as not run, so the token
     * must not stay used). Completes after the first attempt; while Redis cannot be reached it keeps trying, soon at
     * first (a broken connection is replaced within moments), then every second, for at most
     * {@link #GIVE_BACK_DEADLINE}. Never completes exceptionally.
     */
    CompletableFuture<Void> giveBack(byte[] key, byte[] mark) {
        return giveBack(key, mark, System.nanoTime() + GIVE_BACK_DEADLINE.toNanos(), FIRST_RETRY);
    }

    private CompletableFuture<Void> giveBack(byte[] key, byte[] mark, long deadline, Duration retryAfter) {
        return restore(key, mark).handle((restored, failure) -> {
            if (failure == null) {
                return null;
            }
            if (System.nanoTime() - deadline < 0) {
                Executor later = CompletableFuture.delayedExecutor(retryAfter.toMillis(), TimeUnit.MILLISECONDS);
                Duration next = retryAfter.multipliedBy(2);
                Duration capped = next.compareTo(LAST_RETRY) < 0 ? next : LAST_RETRY;
                later.execute(() -> giveBack(key, mark, deadline, capped));
            } else {
                log.warn(
                        "Could not give a token back; it stays used: {}",
                        Futures.unwrap(failure).getMessage());
            }
            return null;
        });
    }

    /** Makes the token valid again if {@code mark}'s submit is the one that consumed it; answers whether it did. */
    CompletableFuture<Boolean> restore(byte[] key, byte[] mark) {
        return redis.<Long>eval("restore", RESTORE, ScriptOutputType.INTEGER, new byte[][] {key}, mark)
                .thenApply(restored -> restored != null && restored == 1L);
    }
}

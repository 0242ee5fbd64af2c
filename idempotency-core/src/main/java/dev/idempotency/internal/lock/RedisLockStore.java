package dev.idempotency.internal.lock;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.redis.LuaScript;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.redis.ReplicaConfirmations;
import dev.idempotency.key.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * Lock records in Redis: acquire with a fencing token, renew and release, each one script on one hash slot. Releases
 * are published on a channel; waiters hear them through one subscription per application, opened on the first wait.
 */
final class RedisLockStore implements LockStore {

    /**
     * How long a fencing counter outlives its last acquisition, at least. Tokens also take the Redis clock (in
     * microseconds) as their floor, so they keep increasing after the counter expires; the counter only has to bridge
     * acquisitions closer than the clock can tell apart, and a short retention keeps Redis memory small.
     */
    static final Duration MIN_FENCE_RETENTION = Duration.ofMinutes(1);

    /**
     * KEYS[1] lock, KEYS[2] fencing counter; ARGV[1] owner, ARGV[2] lease ms, ARGV[3] fence retention ms. Returns the
     * new fencing token (> 0): one more than the last, and never below the Redis clock in microseconds, so tokens
     * increase even after the counter expired. Returns minus the remaining lease in ms when the lock is busy.
     */
    private static final LuaScript ACQUIRE = LuaScript.of("""
            if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              local now = redis.call('TIME')
              local last = tonumber(redis.call('GET', KEYS[2]) or '0')
              local fence = math.max(last + 1, now[1] * 1000000 + now[2])
              redis.call('SET', KEYS[2], string.format('%.0f', fence), 'PX', ARGV[3])
              return fence
            end
            return -math.max(redis.call('PTTL', KEYS[1]), 1)
            """);

    /**
     * KEYS[1] lock; ARGV[1] owner, ARGV[2] release channel. Deletes only the owner's lock and wakes waiters. The
     * PUBLISH runs under pcall: a Redis user without permission on the channel must not fail a release whose delete
     * already happened (waiters then wake by their fallback poll).
     */
    private static final LuaScript RELEASE = LuaScript.of("""
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('DEL', KEYS[1])
              redis.pcall('PUBLISH', ARGV[2], KEYS[1])
              return 1
            end
            return 0
            """);

    /** KEYS[1] lock; ARGV[1] owner, ARGV[2] lease ms. 1 when extended, 0 when the lock is no longer the owner's. */
    private static final LuaScript RENEW = LuaScript.of("""
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              return redis.call('PEXPIRE', KEYS[1], ARGV[2])
            end
            return 0
            """);

    private final RedisGateway redis;
    private final byte[] channel;
    private final @Nullable ReplicaConfirmations confirmations;
    private @Nullable CompletableFuture<RedisConnection> subscription;

    /** @param confirmations with wait-for-replicas, where acquisitions wait for replicas; else {@code null} */
    RedisLockStore(RedisGateway redis, String channel, @Nullable ReplicaConfirmations confirmations) {
        this.redis = redis;
        this.channel = RedisGateway.bytes(channel);
        this.confirmations = confirmations;
    }

    /**
     * The fencing token when acquired, else minus the milliseconds the holder's lease has left. With wait-for-replicas
     * a lock is granted only once enough replicas hold it (a failover could otherwise hand it to a second holder); an
     * unconfirmed one is released again and the acquisition fails as the store being unavailable.
     */
    @Override
    public CompletableFuture<Long> acquire(String key, String owner, Duration lease) {
        byte[][] keys = keys(key, RedisKeys.fence(key));
        byte[][] args = {
            bytes(owner),
            bytes(Long.toString(lease.toMillis())),
            bytes(Long.toString(Math.max(MIN_FENCE_RETENTION.toMillis(), 2 * lease.toMillis())))
        };
        if (confirmations == null) {
            return redis.<Long>eval("acquire", ACQUIRE, ScriptOutputType.INTEGER, keys, args)
                    .thenApply(RedisLockStore::tokenOf);
        }
        return confirmations
                .writeAndWait(
                        "acquire",
                        keys[0],
                        commands -> RedisGateway.<Long>eval(commands, ACQUIRE, ScriptOutputType.INTEGER, keys, args))
                .thenCompose(confirmed -> {
                    long token = tokenOf(confirmed.result());
                    if (token <= 0 || confirmed.acknowledged() >= confirmations.replicas()) {
                        return CompletableFuture.completedFuture(token);
                    }
                    IdempotencyStoreUnavailableException unconfirmed = new IdempotencyStoreUnavailableException(
                            "The lock reached " + confirmed.acknowledged() + " of " + confirmations.replicas()
                                    + " required replicas within "
                                    + confirmations.timeout().toMillis() + " ms",
                            RedisGateway.STORE_RETRY_AFTER);
                    // If even the release fails, the unconfirmed lock ends with its lease.
                    return release(key, owner).handle((released, failure) -> {
                        throw unconfirmed;
                    });
                });
    }

    private static long tokenOf(@Nullable Long result) {
        return result == null ? -1L : result;
    }

    @Override
    public CompletableFuture<Boolean> renew(String key, String owner, Duration lease) {
        return redis.<Long>eval(
                        "renew",
                        RENEW,
                        ScriptOutputType.INTEGER,
                        keys(key),
                        bytes(owner),
                        bytes(Long.toString(lease.toMillis())))
                .thenApply(RedisLockStore::isOne);
    }

    @Override
    public CompletableFuture<Boolean> release(String key, String owner) {
        return redis.<Long>eval("release", RELEASE, ScriptOutputType.INTEGER, keys(key), bytes(owner), channel)
                .thenApply(RedisLockStore::isOne);
    }

    /**
     * Opens the subscription to the release channel, or answers the open one; a subscription that failed or whose
     * connection was closed (the connection factory stopped and started) is opened again. Messages are handled on
     * Lettuce's I/O thread, so no thread is started per message.
     */
    @Override
    public synchronized CompletableFuture<?> releases(Consumer<String> released) {
        CompletableFuture<RedisConnection> current = subscription;
        if (current == null || current.isCompletedExceptionally() || isGone(current)) {
            current = redis.offload(() -> subscribe(released));
            subscription = current;
        }
        return current;
    }

    private static boolean isGone(CompletableFuture<RedisConnection> subscription) {
        RedisConnection connection = subscription.getNow(null);
        return connection != null && (connection.isClosed() || !connection.isSubscribed());
    }

    private RedisConnection subscribe(Consumer<String> released) {
        RedisConnection connection = redis.connectionFactory().getConnection();
        try {
            connection.subscribe(
                    (message, pattern) -> released.accept(new String(message.getBody(), StandardCharsets.UTF_8)),
                    channel);
            return connection;
        } catch (RuntimeException ex) {
            connection.close();
            throw ex;
        }
    }

    @Override
    public synchronized void close() {
        CompletableFuture<RedisConnection> current = subscription;
        if (current != null) {
            current.thenAccept(RedisConnection::close);
        }
    }

    private static boolean isOne(Long result) {
        return result != null && result == 1L;
    }

    private static byte[][] keys(String... keys) {
        byte[][] encoded = new byte[keys.length][];
        for (int i = 0; i < keys.length; i++) {
            encoded[i] = bytes(keys[i]);
        }
        return encoded;
    }

    private static byte[] bytes(String text) {
        return RedisGateway.bytes(text);
    }
}

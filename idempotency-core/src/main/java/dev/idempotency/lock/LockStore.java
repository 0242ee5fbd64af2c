package dev.idempotency.lock;

import dev.idempotency.internal.redis.LuaScript;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.key.RedisKeys;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Lock records in Redis: acquire with a fencing token, renew and release, each one script on one hash slot. */
final class LockStore {

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

    LockStore(RedisGateway redis, String channel) {
        this.redis = redis;
        this.channel = RedisGateway.bytes(channel);
    }

    /** The fencing token when acquired, else minus the milliseconds the holder's lease has left. */
    CompletableFuture<Long> acquire(String key, String owner, Duration lease) {
        long retention = Math.max(MIN_FENCE_RETENTION.toMillis(), 2 * lease.toMillis());
        return redis.<Long>eval(
                        "acquire",
                        ACQUIRE,
                        ScriptOutputType.INTEGER,
                        keys(key, RedisKeys.fence(key)),
                        bytes(owner),
                        bytes(Long.toString(lease.toMillis())),
                        bytes(Long.toString(retention)))
                .thenApply(result -> result == null ? -1L : result);
    }

    CompletableFuture<Boolean> renew(String key, String owner, Duration lease) {
        return redis.<Long>eval(
                        "renew",
                        RENEW,
                        ScriptOutputType.INTEGER,
                        keys(key),
                        bytes(owner),
                        bytes(Long.toString(lease.toMillis())))
                .thenApply(LockStore::isOne);
    }

    CompletableFuture<Boolean> release(String key, String owner) {
        return redis.<Long>eval("release", RELEASE, ScriptOutputType.INTEGER, keys(key), bytes(owner), channel)
                .thenApply(LockStore::isOne);
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

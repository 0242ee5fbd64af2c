package dev.idempotency.support;

import dev.idempotency.IdempotencyStoreUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.util.Assert;

/**
 * The one door to Redis: string keys, byte-array values, scripts by {@code EVALSHA} (Spring falls back to
 * {@code EVAL} once per script and server), and every Redis failure turned into
 * {@link IdempotencyStoreUnavailableException} so callers can fail closed.
 */
public final class RedisGateway {

    /** Suggested {@code Retry-After} when Redis fails: long enough for a reconnect, short enough for a user. */
    public static final Duration STORE_RETRY_AFTER = Duration.ofSeconds(1);

    private final RedisTemplate<String, byte[]> template;
    private final StoreCallListener listener;
    private final RedisConnectionFactory connectionFactory;

    public RedisGateway(RedisConnectionFactory connectionFactory) {
        this(connectionFactory, StoreCallListener.NONE);
    }

    /** A gateway that reports every call to {@code listener}, e.g. for metrics. */
    public RedisGateway(RedisConnectionFactory connectionFactory, StoreCallListener listener) {
        Assert.notNull(connectionFactory, "connectionFactory must not be null");
        Assert.notNull(listener, "listener must not be null");
        this.listener = listener;
        this.connectionFactory = connectionFactory;
        this.template = new RedisTemplate<>();
        template.setConnectionFactory(connectionFactory);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(RedisSerializer.byteArray());
        template.setEnableDefaultSerializer(false);
        // Hand callbacks the connection itself: the default wraps it in a new JDK proxy on every call.
        template.setExposeConnection(true);
        template.afterPropertiesSet();
    }

    /**
     * Runs a script on the keys with byte-array arguments; the reply is converted by the script's result type.
     *
     * @param kind what the call does, for the {@link StoreCallListener}
     */
    public <T> @Nullable T script(String kind, RedisScript<T> script, List<String> keys, byte[]... args) {
        return timed(
                kind,
                () -> template.execute(script, RedisSerializer.byteArray(), resultSerializer(), keys, (Object[]) args));
    }

    /** Runs one command on a connection, e.g. a plain {@code SET} with options. */
    public <T> @Nullable T command(String kind, Function<RedisConnection, @Nullable T> command) {
        return timed(kind, () -> template.execute(command::apply, true));
    }

    private <T> @Nullable T timed(String kind, Supplier<@Nullable T> call) {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            T result = call.get();
            failed = false;
            return result;
        } catch (DataAccessException ex) {
            throw unavailable(ex);
        } finally {
            listener.onCall(kind, System.nanoTime() - start, failed);
        }
    }

    /**
     * Waits until {@code replicas} replicas acknowledged every write made so far on the connection that wrote
     * {@code key} (Redis {@code WAIT}), at most {@code timeout}; returns how many did.
     */
    public long waitForReplicas(String key, int replicas, Duration timeout) {
        Long acknowledged = command(
                "wait", connection -> ReplicaWait.await(connection, connectionFactory, key(key), replicas, timeout));
        return acknowledged == null ? 0 : acknowledged;
    }

    /** The underlying template, for callers that need Spring Data Redis directly (diagnostics, tests). */
    public RedisTemplate<String, byte[]> template() {
        return template;
    }

    /** Encodes a key as Redis sees it. */
    public static byte[] key(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    private static IdempotencyStoreUnavailableException unavailable(DataAccessException ex) {
        return new IdempotencyStoreUnavailableException(
                "Redis is unavailable: " + ex.getMessage(), STORE_RETRY_AFTER, ex);
    }

    @SuppressWarnings("unchecked")
    private static <T> RedisSerializer<T> resultSerializer() {
        return (RedisSerializer<T>) RedisSerializer.byteArray();
    }
}

package dev.idempotency.internal.redis;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.Assert;

/**
 * The one door to Redis: asynchronous Lettuce commands on the application's shared connection (whatever its topology:
 * standalone, Sentinel or cluster, with its TLS and credentials), scripts by {@code EVALSHA}, every call reported to
 * the {@link StoreListener}, and every failure turned into {@link IdempotencyStoreUnavailableException} so callers can
 * fail closed. Nothing here blocks the calling thread: a caller that needs the answer joins the future.
 */
public final class RedisGateway implements AutoCloseable {

    /** Suggested {@code Retry-After} when Redis fails: long enough for a reconnect, short enough for a user. */
    public static final Duration STORE_RETRY_AFTER = Duration.ofSeconds(1);

    private final LettuceConnectionFactory connectionFactory;
    private final StoreListener listener;
    private final Connector<RedisClusterAsyncCommands<byte[], byte[]>> connector;

    /**
     * @param connectionFactory the application's factory; it must be Lettuce's, the client Spring Boot's Redis starter
     *     brings, because the strategies pipeline asynchronous commands
     */
    public RedisGateway(RedisConnectionFactory connectionFactory, StoreListener listener) {
        Assert.notNull(listener, "listener must not be null");
        this.connectionFactory = requireLettuce(connectionFactory);
        this.listener = listener;
        this.connector = new Connector<>(this::connectShared, RedisGateway::isClosed);
    }

    /** Runs one command on the shared connection; {@code kind} names it for the listener. */
    public <T> CompletableFuture<T> call(
            String kind, Function<RedisClusterAsyncCommands<byte[], byte[]>, ? extends CompletionStage<T>> command) {
        return timed(kind, () -> connector.connection().thenCompose(command));
    }

    /** Runs a script on the shared connection; see {@link #eval(RedisClusterAsyncCommands, LuaScript, ScriptOutputType, byte[][], byte[]...)}. */
    public <T> CompletableFuture<T> eval(
            String kind, LuaScript script, ScriptOutputType type, byte[][] keys, byte[]... args) {
        return call(kind, commands -> eval(commands, script, type, keys, args));
    }

    /**
     * Runs a script on any connection by {@code EVALSHA}, falling back to {@code EVAL} when Redis does not know it
     * yet. {@link ScriptOutputType#INTEGER} answers a {@code Long}, {@link ScriptOutputType#VALUE} a {@code byte[]}
     * ({@code null} for a Lua {@code false}).
     */
    public static <T> CompletionStage<T> eval(
            RedisClusterAsyncCommands<byte[], byte[]> commands,
            LuaScript script,
            ScriptOutputType type,
            byte[][] keys,
            byte[]... args) {
        CompletableFuture<T> result = new CompletableFuture<>();
        commands.<T>evalsha(script.sha1(), type, keys, args).whenComplete((value, failure) -> {
            if (failure == null) {
                result.complete(value);
            } else if (Futures.unwrap(failure) instanceof RedisNoScriptException) {
                commands.<T>eval(script.text(), type, keys, args).whenComplete((loaded, evalFailure) -> {
                    if (evalFailure == null) {
                        result.complete(loaded);
                    } else {
                        result.completeExceptionally(evalFailure);
                    }
                });
            } else {
                result.completeExceptionally(failure);
            }
        });
        return result;
    }

    /** Times a call for the listener and turns its failure into {@link IdempotencyStoreUnavailableException}. */
    public <T> CompletableFuture<T> timed(String kind, Supplier<? extends CompletionStage<T>> call) {
        long start = System.nanoTime();
        CompletableFuture<T> result = new CompletableFuture<>();
        CompletionStage<T> sent;
        try {
            sent = call.get();
        } catch (RuntimeException ex) {
            sent = CompletableFuture.failedFuture(ex);
        }
        sent.whenComplete((value, failure) -> {
            listener.onCall(StoreListener.REDIS, kind, System.nanoTime() - start, failure != null);
            if (failure == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(unavailable(failure));
            }
        });
        return result;
    }

    /** Deletes {@code key}, whatever it holds; completes with whether it was there. */
    public CompletableFuture<Boolean> delete(String key) {
        return this.<Long>call("delete", commands -> commands.del(bytes(key)))
                .thenApply(deleted -> deleted != null && deleted > 0);
    }

    /**
     * Runs blocking work, such as opening a connection or subscribing, off the caller's thread; its failure becomes
     * {@link IdempotencyStoreUnavailableException}.
     */
    public <T> CompletableFuture<T> offload(Supplier<T> blocking) {
        return CompletableFuture.supplyAsync(blocking, Connector.CONNECTING)
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(unavailable(failure)));
    }

    /** The application's connection factory, for the parts that need connections of their own. */
    public LettuceConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    public StoreListener listener() {
        return listener;
    }

    /** Encodes a key or an ASCII argument as Redis sees it. */
    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A failure as the store-failure contract reports it: 503, or an unprotected run under {@code proceed}. */
    public static IdempotencyStoreUnavailableException unavailable(Throwable failure) {
        Throwable cause = Futures.unwrap(failure);
        if (cause instanceof IdempotencyStoreUnavailableException unavailable) {
            return unavailable;
        }
        return new IdempotencyStoreUnavailableException(
                "Redis is unavailable: " + cause.getMessage(), STORE_RETRY_AFTER, cause);
    }

    /** Whether Redis refused a command because {@code maxmemory} is reached (an {@code OOM} error reply). */
    public static boolean isOutOfMemory(Throwable failure) {
        Throwable cause = Futures.unwrap(failure);
        while (cause != null) {
            if (String.valueOf(cause.getMessage()).startsWith("OOM ")) {
                return true;
            }
            cause = cause.getCause();
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private RedisClusterAsyncCommands<byte[], byte[]> connectShared(Connector.Resources holder) {
        // Lettuce shares one native connection per factory; the wrapper only has to stay open to keep it.
        RedisConnection connection = connectionFactory.getConnection();
        holder.keep(connection);
        if (!(connection.getNativeConnection() instanceof RedisClusterAsyncCommands<?, ?> commands)) {
            throw new IllegalStateException(
                    "Expected Lettuce's asynchronous commands, got " + connection.getNativeConnection());
        }
        return (RedisClusterAsyncCommands<byte[], byte[]>) commands;
    }

    /** Whether the connection behind {@code commands} is closed for good (not merely reconnecting). */
    static boolean isClosed(RedisClusterAsyncCommands<byte[], byte[]> commands) {
        Object stateful = commands instanceof RedisAsyncCommands<?, ?> standalone
                ? standalone.getStatefulConnection()
                : commands instanceof RedisAdvancedClusterAsyncCommands<?, ?> cluster
                        ? cluster.getStatefulConnection()
                        : null;
        return isClosed(stateful);
    }

    /** Whether {@code connection} (a Lettuce connection, or anything else) is closed for good. */
    static boolean isClosed(@Nullable Object connection) {
        return connection instanceof RedisChannelHandler<?, ?> handler && handler.isClosed();
    }

    private static LettuceConnectionFactory requireLettuce(@Nullable RedisConnectionFactory connectionFactory) {
        Assert.notNull(connectionFactory, "connectionFactory must not be null");
        if (connectionFactory instanceof LettuceConnectionFactory lettuce) {
            return lettuce;
        }
        throw new IllegalArgumentException(
                "Idempotency needs Lettuce (the Redis client of spring-boot-starter-data-redis),"
                        + " but the RedisConnectionFactory is a "
                        + connectionFactory.getClass().getName());
    }

    @Override
    public void close() {
        connector.close();
    }
}

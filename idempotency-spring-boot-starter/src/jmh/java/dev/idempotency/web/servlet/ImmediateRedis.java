package dev.idempotency.web.servlet;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Redis for the in-JVM benchmarks: a {@link LettuceConnectionFactory} whose shared connection answers every command
 * the strategies send at once, on the calling thread, with a completed future. No socket, no event loop, no server:
 * the library's own code runs unchanged on top (gateway, strategies, leases, record and response encoding), and what
 * the figures leave out is Lettuce's and Redis's work. The stand-in is a {@link Proxy} of Lettuce's command interface;
 * its own share of a round trip is in {@code InterceptorPathBenchmarks.gatewayCallOnly}.
 *
 * <p>Answers: {@code SET ... GET} (claims) and scripts with a value reply (the token consume) get
 * {@link #setGetReply}; scripts with an integer reply get 1 (a claim completed, renewed or released; a lock acquired
 * with fencing token 1, renewed or released);
 * {@code INFO} says Redis 7.2, so claims use {@code SET ... NX GET}. The value a {@code REQUEST_ID} completion stores
 * (the only script with one key and four arguments) is kept ({@link #lastRecord}), for a duplicate to replay.
 */
final class ImmediateRedis extends LettuceConnectionFactory {

    private static final String INFO = "# Server\r\nredis_version:7.2.0\r\n";

    /**
     * What the next {@code SET ... GET} or token consume returns: {@code null} (a claim made), a record, or a token's
     * state.
     */
    byte @Nullable [] setGetReply;

    /** The arguments of the last {@code REQUEST_ID} completion (joined only when asked: no copy here). */
    byte @Nullable [][] lastStored;

    /** The record the last {@code REQUEST_ID} completion stored, or {@code null}. */
    byte @Nullable [] lastRecord() {
        byte[][] values = lastStored;
        if (values == null) {
            return null;
        }
        byte[] record = java.util.Arrays.copyOf(values[1], values[1].length + values[3].length);
        System.arraycopy(values[3], 0, record, values[1].length, values[3].length);
        return record;
    }

    private final RedisClusterAsyncCommands<byte[], byte[]> commands =
            proxy(RedisClusterAsyncCommands.class, this::command);

    ImmediateRedis() {
        // Never used to connect: getConnection() is answered here.
        super(new RedisStandaloneConfiguration("127.0.0.1", 1));
    }

    @Override
    public RedisConnection getConnection() {
        return proxy(RedisConnection.class, (method, args) -> switch (method.getName()) {
            case "getNativeConnection" -> commands;
            case "isClosed" -> false;
            case "close" -> null;
            default -> throw unsupported(method);
        });
    }

    private Object command(Method method, Object[] args) {
        return switch (method.getName()) {
            case "setGet" -> done(setGetReply);
            case "evalsha", "eval" -> script((ScriptOutputType) args[1], (byte[][]) args[2], (byte[][]) args[3]);
            case "info" -> done(INFO);
            case "set" -> done("OK");
            case "get" -> done(null);
            default -> throw unsupported(method);
        };
    }

    private RedisFuture<?> script(ScriptOutputType type, byte[][] keys, byte[][] values) {
        if (type == ScriptOutputType.VALUE) {
            return done(setGetReply);
        }
        if (type != ScriptOutputType.INTEGER) {
            return done(null);
        }
        if (keys.length == 1 && values.length == 4) {
            lastStored = values; // the complete script: the record's head and the result, which Redis joins
        }
        return done(1L);
    }

    private static UnsupportedOperationException unsupported(Method method) {
        return new UnsupportedOperationException(method.getName() + " is not answered by the benchmarks' Redis");
    }

    private static <T> RedisFuture<T> done(@Nullable T value) {
        return new Done<>(value);
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<?> type, Answer answer) {
        return (T) Proxy.newProxyInstance(
                ImmediateRedis.class.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return switch (method.getName()) {
                            case "equals" -> self == args[0];
                            case "hashCode" -> System.identityHashCode(self);
                            default -> "benchmark " + type.getSimpleName();
                        };
                    }
                    return answer.answer(method, args == null ? new Object[0] : args);
                });
    }

    @FunctionalInterface
    private interface Answer {
        @Nullable
        Object answer(Method method, Object[] args);
    }

    /** A command that has completed already. */
    private static final class Done<T> extends CompletableFuture<T> implements RedisFuture<T> {

        Done(@Nullable T value) {
            complete(value);
        }

        @Override
        public @Nullable String getError() {
            return null;
        }

        @Override
        public boolean await(long timeout, TimeUnit unit) {
            return true;
        }
    }
}

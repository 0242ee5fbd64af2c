package dev.idempotency.reliability;

import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.token.TokenExecutor;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The library's core API wired by hand, as one application instance would have it: one connection factory and the
 * three strategies with what they share. For scenarios where HTTP adds nothing but noise.
 */
final class CoreStack implements AutoCloseable {

    final RedisConnectionFactory factory;
    final RedisIdempotency idempotency;
    final RedisKeys keys;
    final RequestIdExecutor executor;
    final TokenExecutor tokens;
    final LeaseLockManager locks;
    private final @Nullable LettuceConnectionFactory owned;

    private CoreStack(
            RedisConnectionFactory factory, @Nullable LettuceConnectionFactory owned, RedisIdempotency built) {
        this.factory = factory;
        this.owned = owned;
        this.idempotency = built;
        this.keys = built.keys();
        this.executor = built.requestIds();
        this.tokens = built.tokens();
        this.locks = built.locks();
    }

    /** A stack on a factory the caller owns (e.g. a harness cluster factory). */
    static CoreStack on(RedisConnectionFactory factory, String prefix, int waitForReplicas, Duration waitTimeout) {
        return new CoreStack(
                factory,
                null,
                RedisIdempotency.builder(factory)
                        .keyPrefix(prefix)
                        .waitForReplicas(waitForReplicas, waitTimeout)
                        .build());
    }

    /** A stack with its own Lettuce connection to {@code host:port} (e.g. a {@link FaultProxy}); closed with it. */
    static CoreStack connect(String host, int port, Duration commandTimeout, String prefix) {
        return connect(host, port, commandTimeout, prefix, StoreListener.NONE);
    }

    static CoreStack connect(String host, int port, Duration commandTimeout, String prefix, StoreListener listener) {
        LettuceConnectionFactory factory = standalone(host, port, commandTimeout);
        return new CoreStack(
                factory,
                factory,
                RedisIdempotency.builder(factory)
                        .keyPrefix(prefix)
                        .listener(listener)
                        .build());
    }

    /** Whether {@code key} exists, asked through this stack's own connection. */
    boolean exists(String key) {
        Long found =
                Futures.join(idempotency.gateway().call("test", commands -> commands.exists(RedisGateway.bytes(key))));
        return found != null && found > 0;
    }

    /** A started Lettuce factory like the starter's: shared native connection, auto-reconnect, the given timeout. */
    static LettuceConnectionFactory standalone(String host, int port, Duration commandTimeout) {
        LettuceClientConfiguration client = LettuceClientConfiguration.builder()
                .commandTimeout(commandTimeout)
                .shutdownTimeout(Duration.ZERO)
                .clientOptions(ClientOptions.builder()
                        .socketOptions(SocketOptions.builder()
                                .connectTimeout(commandTimeout)
                                .build())
                        .build())
                .build();
        LettuceConnectionFactory factory =
                new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port), client);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    @Override
    public void close() {
        idempotency.close();
        if (owned != null) {
            owned.destroy();
        }
    }
}

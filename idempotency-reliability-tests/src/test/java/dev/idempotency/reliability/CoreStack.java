package dev.idempotency.reliability;

import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.requestid.RequestIdStore;
import dev.idempotency.support.LeaseRenewer;
import dev.idempotency.support.RedisGateway;
import dev.idempotency.token.TokenStore;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The library's core API wired by hand, as one application instance would have it: one connection factory, gateway,
 * renewer and the three strategies. For scenarios where HTTP adds nothing but noise.
 */
final class CoreStack implements AutoCloseable {

    final RedisConnectionFactory factory;
    final RedisGateway redis;
    final RedisKeys keys;
    final LeaseRenewer renewer = new LeaseRenewer();
    final RequestIdStore store;
    final RequestIdExecutor executor;
    final TokenStore tokens;
    final LeaseLockManager locks;
    private final LettuceConnectionFactory owned;

    private CoreStack(
            RedisConnectionFactory factory,
            LettuceConnectionFactory owned,
            String prefix,
            int waitForReplicas,
            Duration waitTimeout) {
        this.factory = factory;
        this.owned = owned;
        this.redis = new RedisGateway(factory);
        this.keys = new RedisKeys(prefix);
        this.store = new RequestIdStore(redis, waitForReplicas, waitTimeout);
        this.executor = new RequestIdExecutor(store, renewer);
        this.tokens = new TokenStore(redis, keys);
        this.locks = new LeaseLockManager(redis, factory, keys, renewer);
    }

    /** A stack on a factory the caller owns (e.g. a harness cluster factory). */
    static CoreStack on(RedisConnectionFactory factory, String prefix, int waitForReplicas, Duration waitTimeout) {
        return new CoreStack(factory, null, prefix, waitForReplicas, waitTimeout);
    }

    /** A stack with its own Lettuce connection to {@code host:port} (e.g. a {@link FaultProxy}); closed with it. */
    static CoreStack connect(String host, int port, Duration commandTimeout, String prefix) {
        LettuceConnectionFactory factory = standalone(host, port, commandTimeout);
        return new CoreStack(factory, factory, prefix, 0, Duration.ZERO);
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
        locks.close();
        renewer.close();
        if (owned != null) {
            owned.destroy();
        }
    }
}

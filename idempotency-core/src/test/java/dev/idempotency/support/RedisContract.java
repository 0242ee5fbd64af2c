package dev.idempotency.support;

import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Topologies;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Base of the contract suites, each a {@code @ParameterizedClass} over {@link Topologies}: the connection, gateway,
 * timers and renewer the strategies share (one set per topology for the whole run), and a key prefix per test so
 * tests never see each other's records on a shared server.
 */
public abstract class RedisContract {

    private static final Map<Topologies, Shared> SHARED = new ConcurrentHashMap<>();

    @Parameter(0)
    protected Topologies topology;

    protected RedisConnectionFactory connectionFactory;
    protected RedisGateway redis;
    protected RedisKeys keys;
    protected Scheduling scheduling;
    protected LeaseRenewer renewer;

    @BeforeEach
    final void connect() {
        Shared shared = SHARED.computeIfAbsent(topology, Shared::new);
        connectionFactory = shared.connectionFactory;
        redis = shared.redis;
        scheduling = shared.scheduling;
        renewer = shared.renewer;
        keys = new RedisKeys("idempotency:test:" + UUID.randomUUID() + ":");
        setUp();
    }

    /** Builds what the suite tests, once connected. */
    protected abstract void setUp();

    /** Remaining time to live of a key in milliseconds, as Redis reports it (-2 when absent). */
    protected long pttl(String key) {
        Long pttl = join(redis.call("test", commands -> commands.pttl(RedisGateway.bytes(key))));
        return pttl == null ? -2 : pttl;
    }

    protected boolean exists(String key) {
        return pttl(key) != -2;
    }

    protected void delete(String key) {
        join(redis.call("test", commands -> commands.del(RedisGateway.bytes(key))));
    }

    /** Overwrites a key, e.g. to play another owner who took a record over. */
    protected void set(String key, byte[] value) {
        join(redis.call("test", commands -> commands.set(RedisGateway.bytes(key), value)));
    }

    protected static <T> T join(CompletableFuture<T> future) {
        return Futures.join(future);
    }

    /** What one application shares on one topology; lives as long as the test JVM, like the topology itself. */
    private static final class Shared {

        final RedisConnectionFactory connectionFactory;
        final RedisGateway redis;
        final Scheduling scheduling = new Scheduling();
        final LeaseRenewer renewer = new LeaseRenewer(scheduling, StoreListener.NONE);

        Shared(Topologies topology) {
            this.connectionFactory = topology.newConnectionFactory();
            this.redis = new RedisGateway(connectionFactory, StoreListener.NONE);
        }
    }
}

package dev.idempotency.support;

import dev.idempotency.internal.Futures;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.spi.StoreListener;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Base of the contract suites that run against every Redis setup: the gateway, timers and renewer the strategies
 * share, and a key prefix of its own so suites never see each other's records on a shared server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RedisContract {

    protected final RedisConnectionFactory connectionFactory;
    protected final RedisGateway redis;
    protected final RedisKeys keys;
    protected final Scheduling scheduling = new Scheduling();
    protected final LeaseRenewer renewer;

    protected RedisContract(RedisConnectionFactory connectionFactory) {
        this(connectionFactory, StoreListener.NONE);
    }

    protected RedisContract(RedisConnectionFactory connectionFactory, StoreListener listener) {
        this.connectionFactory = connectionFactory;
        this.redis = new RedisGateway(connectionFactory, listener);
        this.renewer = new LeaseRenewer(scheduling, listener);
        this.keys = new RedisKeys("idempotency:test:" + UUID.randomUUID() + ":");
    }

    @AfterAll
    void closeShared() {
        renewer.close();
        scheduling.close();
        redis.close();
    }

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
}

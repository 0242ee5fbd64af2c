package dev.idempotency.support;

import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.internal.lock.LeaseLocks;
import dev.idempotency.internal.memory.Keyspace;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.requestid.MemoryRequestIdStore;
import dev.idempotency.internal.requestid.RedisRequestIdStore;
import dev.idempotency.internal.requestid.RequestIdStore;
import dev.idempotency.internal.token.MemoryIssueQuota;
import dev.idempotency.internal.token.MemoryTokenStore;
import dev.idempotency.internal.token.RedisIssueQuota;
import dev.idempotency.internal.token.RedisTokenStore;
import dev.idempotency.internal.token.TokenStore;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Topologies;
import dev.idempotency.token.IssueQuota;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;

/**
 * Base of the contract suites, each a {@code @ParameterizedClass} over {@link #stores()}: every Redis topology users
 * run, and this JVM's memory ({@code idempotency.store: in-memory}), one contract for all. It gives the suites the
 * stores of each strategy and a look at the records (time to live, delete, overwrite) as the store keeps them. What one
 * application shares on one store (connection, timers, renewer, key space) is made once for the whole run, and every
 * test gets a key prefix of its own, so tests never see each other's records.
 */
public abstract class StoreContract {

    private static final Map<Store, Shared> SHARED = new ConcurrentHashMap<>();

    /** Where the records live: a Redis topology, or memory ({@code topology} null). */
    public record Store(@Nullable Topologies topology) {

        @Override
        public String toString() {
            return topology == null ? "IN_MEMORY" : topology.name();
        }
    }

    /** Every Redis topology, then memory. */
    public static List<Store> stores() {
        return Stream.concat(Arrays.stream(Topologies.values()).map(Store::new), Stream.of(inMemory()))
                .toList();
    }

    public static Store inMemory() {
        return new Store(null);
    }

    @Parameter(0)
    protected Store store;

    protected RedisKeys keys;
    protected Scheduling scheduling;
    protected LeaseRenewer renewer;
    private Shared shared;

    @BeforeEach
    final void connect() {
        shared = SHARED.computeIfAbsent(store, Shared::new);
        scheduling = shared.scheduling;
        renewer = shared.renewer;
        keys = new RedisKeys("idempotency:test:" + UUID.randomUUID() + ":");
        setUp();
    }

    /** Builds what the suite tests, once connected. */
    protected abstract void setUp();

    /** Whether this run is on Redis (some cases need its commands, e.g. claims by script as on Redis 6.2). */
    protected boolean onRedis() {
        return shared.redis != null;
    }

    /** The {@code REQUEST_ID} records' store; on Redis, claiming with {@code claims}. */
    protected RequestIdStore requestIdStore(RedisRequestIdStore.ClaimCommand claims) {
        return shared.redis != null
                ? new RedisRequestIdStore(shared.redis, null, claims)
                : new MemoryRequestIdStore(shared.keyspace);
    }

    protected TokenStore tokenStore() {
        return shared.redis != null ? new RedisTokenStore(shared.redis, null) : new MemoryTokenStore(shared.keyspace);
    }

    protected IssueQuota issueQuota(int perCaller, int total, Duration window) {
        return shared.redis != null
                ? new RedisIssueQuota(shared.redis, keys, perCaller, total, window)
                : new MemoryIssueQuota(shared.keyspace, keys, StoreListener.NONE, perCaller, total, window);
    }

    protected LeaseLocks lockManager() {
        return lockManager(renewer);
    }

    /** The locks, their leases renewed (and reported lost) by {@code renewer}. */
    protected LeaseLocks lockManager(LeaseRenewer renewer) {
        return shared.redis != null
                ? LeaseLocks.inRedis(shared.redis, keys, renewer, scheduling, null)
                : LeaseLocks.inMemory(shared.keyspace, keys, renewer, scheduling, StoreListener.NONE);
    }

    /** Remaining time to live of a key in milliseconds, as the store reports it (-2 when absent). */
    protected long pttl(String key) {
        if (shared.redis == null) {
            Keyspace.Value value = shared.keyspace.get(key);
            return value == null ? -2 : value.millisLeft();
        }
        Long pttl = join(shared.redis.call("test", commands -> commands.pttl(RedisGateway.bytes(key))));
        return pttl == null ? -2 : pttl;
    }

    protected boolean exists(String key) {
        return pttl(key) != -2;
    }

    protected void delete(String key) {
        if (shared.redis == null) {
            shared.keyspace.delete("test", key);
            return;
        }
        join(shared.redis.call("test", commands -> commands.del(RedisGateway.bytes(key))));
    }

    /** Overwrites a key, e.g. to play another owner who took a record over. */
    protected void set(String key, byte[] value) {
        if (shared.redis == null) {
            shared.keyspace.set(key, value);
            return;
        }
        join(shared.redis.call("test", commands -> commands.set(RedisGateway.bytes(key), value)));
    }

    protected static <T> T join(CompletableFuture<T> future) {
        return Futures.join(future);
    }

    /** What one application shares on one store; lives as long as the test JVM, like the topology itself. */
    private static final class Shared {

        final @Nullable RedisGateway redis;
        final Keyspace keyspace = new Keyspace(StoreListener.NONE);
        final Scheduling scheduling = new Scheduling();
        final LeaseRenewer renewer = new LeaseRenewer(scheduling, StoreListener.NONE);

        Shared(Store store) {
            this.redis = store.topology() == null
                    ? null
                    : new RedisGateway(store.topology().newConnectionFactory(), StoreListener.NONE);
        }
    }
}

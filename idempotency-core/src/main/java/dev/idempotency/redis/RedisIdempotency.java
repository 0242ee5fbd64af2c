package dev.idempotency.redis;

import dev.idempotency.IdempotencyStore;
import dev.idempotency.internal.Durations;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.TransactionJoin;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.internal.lock.LeaseLocks;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.redis.ReplicaConfirmations;
import dev.idempotency.internal.requestid.JdbcRequestIdStore;
import dev.idempotency.internal.requestid.RedisRequestIdStore;
import dev.idempotency.internal.requestid.RequestIdStore;
import dev.idempotency.internal.requestid.RequestIdStrategy;
import dev.idempotency.internal.token.JdbcTokenStore;
import dev.idempotency.internal.token.RedisIssueQuota;
import dev.idempotency.internal.token.RedisTokenStore;
import dev.idempotency.internal.token.TokenStrategy;
import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.requestid.UndecodableResults;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.token.IssueQuota;
import dev.idempotency.token.TokenExecutor;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * The three strategies on one Redis, with what they share: the connection, the timers and the lease renewer. The
 * {@code REQUEST_ID} records and the tokens may live in the application's database instead
 * ({@link Builder#recordStore}). The Spring Boot starter builds one from {@code idempotency.*}; without Boot, build it
 * yourself and close it on shutdown:
 *
 * <pre>{@code
 * try (RedisIdempotency idempotency = RedisIdempotency.builder(connectionFactory).build()) {
 *     Receipt receipt = idempotency.requestIds().execute(call, () -> payments.charge(order), receiptCodec);
 * }
 * }</pre>
 */
public final class RedisIdempotency implements IdempotencyStore {

    private static final int PURGE_BATCH = 1000;

    private final RedisGateway redis;
    private final Scheduling scheduling;
    private final LeaseRenewer renewer;
    private final @Nullable ReplicaConfirmations confirmations;
    private final RedisKeys keys;
    private final @Nullable JdbcRequestIdStore jdbcRecords;
    private final RequestIdStore requestIdRecords;
    private final RequestIdStrategy requestIds;
    private final TokenStrategy tokens;
    private final LeaseLocks locks;

    private RedisIdempotency(Builder builder) {
        this.scheduling = builder.scheduler != null
                ? new Scheduling(builder.scheduler)
                : builder.virtualThreads ? Scheduling.onVirtualThreads() : new Scheduling();
        this.jdbcRecords = builder.jdbcStore == null ? null : openJdbcStore(builder.jdbcStore, builder.listener);
        this.redis = new RedisGateway(builder.connectionFactory, builder.listener);
        this.renewer = new LeaseRenewer(scheduling, builder.listener);
        this.confirmations = builder.waitForReplicas == 0
                ? null
                : new ReplicaConfirmations(redis, builder.waitForReplicas, builder.waitForReplicasTimeout, scheduling);
        this.keys = new RedisKeys(builder.keyPrefix, builder.namespace);
        this.requestIdRecords = jdbcRecords != null
                ? jdbcRecords
                : new RedisRequestIdStore(redis, confirmations, RedisRequestIdStore.ClaimCommand.AUTO);
        this.requestIds = new RequestIdStrategy(
                requestIdRecords,
                builder.listener,
                keys,
                renewer,
                scheduling,
                builder.maxResultSize,
                builder.undecodableResults);
        this.tokens = new TokenStrategy(
                jdbcRecords != null
                        ? new JdbcTokenStore(jdbcRecords.connections(), jdbcRecords.table())
                        : new RedisTokenStore(redis, confirmations),
                keys);
        this.locks = LeaseLocks.inRedis(redis, keys, renewer, scheduling, confirmations);
    }

    /** Starts a builder on the application's Lettuce connection factory. */
    public static Builder builder(RedisConnectionFactory connectionFactory) {
        return new Builder(connectionFactory);
    }

    @Override
    public RequestIdExecutor requestIds() {
        return requestIds;
    }

    @Override
    public TokenExecutor tokens() {
        return tokens;
    }

    @Override
    public LeaseLockManager locks() {
        return locks;
    }

    /** Counted in this Redis, so that the bound holds across every instance of the application. */
    @Override
    public IssueQuota issueQuota(int perCaller, int total, Duration window) {
        return new RedisIssueQuota(redis, keys, perCaller, total, window);
    }

    /**
     * The listener that joins {@code REQUEST_ID} claims of a {@link Builder#recordStore JDBC store} to the
     * transactions that commit inside their calls: add it to each transaction manager on the store's database
     * ({@code ConfigurableTransactionManager.addListener}; the starter does). Each such transaction then marks the
     * claim committed together with the work's writes, and the work is never run again for its key.
     */
    public static TransactionExecutionListener transactionListener() {
        return TransactionJoin.listener();
    }

    @Override
    public RedisKeys keys() {
        return keys;
    }

    /** The Redis access shared by the strategies; internal, for the starter's diagnostics. */
    public RedisGateway gateway() {
        return redis;
    }

    /**
     * Deletes the records and tokens of a {@link Builder#recordStore JDBC store} whose time is up, in batches;
     * the number deleted (0 with the records in Redis, which expire by themselves). The starter runs it on a schedule.
     */
    public int purgeExpiredRecords() {
        return jdbcRecords == null ? 0 : jdbcRecords.purgeExpired(PURGE_BATCH);
    }

    /** In Redis, or in the JDBC store's table. */
    @Override
    public CompletableFuture<Boolean> deleteRequestIdRecord(String recordKey) {
        return requestIdRecords.delete(recordKey);
    }

    @Override
    public CompletableFuture<Boolean> deleteLock(String lockKey) {
        return redis.delete(lockKey);
    }

    @Override
    public StoreListener listener() {
        return redis.listener();
    }

    /** The JDBC store, its table checked (this fails startup when it is missing) and its purge scheduled. */
    private JdbcRequestIdStore openJdbcStore(JdbcStore settings, StoreListener listener) {
        JdbcRequestIdStore store = JdbcRequestIdStore.open(settings, listener);
        try {
            store.checkTable();
        } catch (RuntimeException ex) {
            store.close();
            scheduling.close(); // the one thing opened before it
            throw ex;
        }
        if (!settings.purgeInterval().isZero()) {
            store.purgeEvery(scheduling, settings.purgeInterval(), PURGE_BATCH);
        }
        return store;
    }

    @Override
    public void close() {
        if (jdbcRecords != null) {
            jdbcRecords.close();
        }
        locks.close();
        renewer.close();
        if (confirmations != null) {
            confirmations.close();
        }
        scheduling.close();
        redis.close();
    }

    /** Settings of a {@link RedisIdempotency}; every one has a default. */
    public static final class Builder {

        private final RedisConnectionFactory connectionFactory;
        private String keyPrefix = "idempotency:";
        private String namespace = "";
        private StoreListener listener = StoreListener.NONE;
        private @Nullable TaskScheduler scheduler;
        private boolean virtualThreads;
        private long maxResultSize = 1024 * 1024;
        private UndecodableResults undecodableResults = UndecodableResults.FAIL;
        private int waitForReplicas;
        private Duration waitForReplicasTimeout = Duration.ofMillis(200);
        private @Nullable JdbcStore jdbcStore;

        private Builder(RedisConnectionFactory connectionFactory) {
            Assert.notNull(connectionFactory, "connectionFactory must not be null");
            this.connectionFactory = connectionFactory;
        }

        /** Prefix of every Redis key; default {@code idempotency:}. */
        public Builder keyPrefix(String keyPrefix) {
            Assert.notNull(keyPrefix, "keyPrefix must not be null");
            this.keyPrefix = keyPrefix;
            return this;
        }

        /**
         * Keeps this application's request-id records and tokens apart from other applications' on the same Redis
         * and key prefix, e.g. {@code "orders-svc"}; empty (the default) for none. Locks are not namespaced.
         */
        public Builder namespace(String namespace) {
            Assert.notNull(namespace, "namespace must not be null");
            this.namespace = namespace;
            return this;
        }

        /** Told about every Redis call and every lost lease, e.g. for metrics. */
        public Builder listener(StoreListener listener) {
            Assert.notNull(listener, "listener must not be null");
            this.listener = listener;
            return this;
        }

        /**
         * Runs the timers (lease renewal, waits) on this scheduler instead of a thread of their own. It must not be
         * one whose threads the application keeps busy: a renewal that waits for a free thread may end a lease.
         */
        public Builder scheduler(TaskScheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Whether the timers run their tasks on virtual threads (Java 21 and later) instead of one platform thread of
         * their own; ignored when a {@link #scheduler} is given.
         */
        public Builder virtualThreads(boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
            return this;
        }

        /**
         * What a duplicate gets when the stored result of its key cannot be decoded: {@link UndecodableResults#FAIL}
         * (the default) or {@link UndecodableResults#RERUN}.
         */
        public Builder undecodableResults(UndecodableResults undecodableResults) {
            Assert.notNull(undecodableResults, "undecodableResults must not be null");
            this.undecodableResults = undecodableResults;
            return this;
        }

        /**
         * Keeps the {@code REQUEST_ID} records and the one-time tokens in this database (PostgreSQL) instead of Redis,
         * so that the record of a call commits in the same transaction as the work's own writes. Locks (and the token
         * issue quota) stay in Redis. Needs {@code spring-jdbc} on the class path.
         */
        public Builder recordStore(JdbcStore jdbcStore) {
            Assert.notNull(jdbcStore, "jdbcStore must not be null");
            Assert.state(
                    ClassUtils.isPresent("org.springframework.jdbc.datasource.DataSourceUtils", null),
                    "The JDBC record store needs spring-jdbc on the class path (e.g. spring-boot-starter-jdbc)");
            this.jdbcStore = jdbcStore;
            return this;
        }

        /** Largest result stored, in bytes; a larger one is returned to its caller but not stored. Default 1 MB. */
        public Builder maxResultSize(long bytes) {
            Assert.isTrue(bytes > 0, "maxResultSize must be positive");
            this.maxResultSize = bytes;
            return this;
        }

        /**
         * Claims (and completions) must reach this many replicas, acknowledged by Redis {@code WAIT} within the
         * timeout, before the work runs; an unconfirmed claim is released and answered as store unavailable.
         */
        public Builder waitForReplicas(int replicas, Duration timeout) {
            Assert.isTrue(replicas >= 0, "replicas must not be negative");
            Assert.isTrue(replicas == 0 || Durations.isPositive(timeout), "timeout must be positive");
            this.waitForReplicas = replicas;
            this.waitForReplicasTimeout = timeout;
            return this;
        }

        /**
         * Builds the entry point with these settings.
         *
         * @return a new {@link RedisIdempotency}
         */
        public RedisIdempotency build() {
            return new RedisIdempotency(this);
        }
    }
}

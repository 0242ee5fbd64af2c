package dev.idempotency.memory;

import dev.idempotency.IdempotencyStore;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.internal.lock.LeaseLocks;
import dev.idempotency.internal.memory.Keyspace;
import dev.idempotency.internal.requestid.MemoryRequestIdStore;
import dev.idempotency.internal.requestid.RequestIdStrategy;
import dev.idempotency.internal.token.MemoryIssueQuota;
import dev.idempotency.internal.token.MemoryTokenStore;
import dev.idempotency.internal.token.TokenStrategy;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.requestid.UndecodableResults;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.token.IssueQuota;
import dev.idempotency.token.TokenExecutor;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.Assert;

/**
 * The three strategies with their records, tokens and locks in this JVM's memory: the same contract as on Redis
 * (claims with leases renewed while the work runs, replays, one-time tokens and their issue bounds, lease locks with
 * fencing tokens), but nothing is shared with another instance or survives a restart. For tests and local runs; a
 * fleet of instances needs Redis or a database. Without Spring Boot:
 *
 * <pre>{@code
 * try (InMemoryIdempotency idempotency = InMemoryIdempotency.builder().build()) {
 *     Receipt receipt = idempotency.requestIds().execute(call, () -> payments.charge(order), receiptCodec);
 * }
 * }</pre>
 */
public final class InMemoryIdempotency implements IdempotencyStore {

    private static final Logger log = LoggerFactory.getLogger(InMemoryIdempotency.class);
    private static final Duration PURGE_INTERVAL = Duration.ofMinutes(1);

    private final StoreListener listener;
    private final Scheduling scheduling;
    private final LeaseRenewer renewer;
    private final Keyspace keyspace;
    private final RedisKeys keys;
    private final MemoryRequestIdStore records;
    private final RequestIdStrategy requestIds;
    private final TokenStrategy tokens;
    private final LeaseLocks locks;
    private final ScheduledFuture<?> purge;

    private InMemoryIdempotency(Builder builder) {
        this.listener = builder.listener;
        this.scheduling = builder.virtualThreads ? Scheduling.onVirtualThreads() : new Scheduling();
        this.renewer = new LeaseRenewer(scheduling, listener);
        this.keyspace = new Keyspace(listener);
        this.keys = new RedisKeys(builder.keyPrefix, builder.namespace);
        this.records = new MemoryRequestIdStore(keyspace);
        this.requestIds = new RequestIdStrategy(
                records, listener, keys, renewer, scheduling, builder.maxResultSize, builder.undecodableResults);
        this.tokens = new TokenStrategy(new MemoryTokenStore(keyspace), keys);
        this.locks = LeaseLocks.inMemory(keyspace, keys, renewer, scheduling, listener);
        this.purge = scheduling.repeat(keyspace::purgeExpired, PURGE_INTERVAL);
        log.warn(
                "Idempotency records, tokens and locks are kept in this JVM's memory: they protect nothing across"
                        + " instances and are lost on restart. For tests and local runs; use Redis or a database in production.");
    }

    /** Starts a builder; every setting has a default. */
    public static Builder builder() {
        return new Builder();
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

    @Override
    public RedisKeys keys() {
        return keys;
    }

    /** Counted in this JVM: the bound holds for this instance only. */
    @Override
    public IssueQuota issueQuota(int perCaller, int total, Duration window) {
        return new MemoryIssueQuota(keyspace, keys, listener, perCaller, total, window);
    }

    @Override
    public CompletableFuture<Boolean> deleteRequestIdRecord(String recordKey) {
        return records.delete(recordKey);
    }

    @Override
    public CompletableFuture<Boolean> deleteLock(String lockKey) {
        return CompletableFuture.completedFuture(keyspace.delete("delete", lockKey));
    }

    @Override
    public StoreListener listener() {
        return listener;
    }

    @Override
    public void close() {
        purge.cancel(false);
        locks.close();
        renewer.close();
        scheduling.close();
    }

    /** Settings of an {@link InMemoryIdempotency}; every one has a default. */
    public static final class Builder {

        private String keyPrefix = "idempotency:";
        private String namespace = "";
        private StoreListener listener = StoreListener.NONE;
        private boolean virtualThreads;
        private long maxResultSize = 1024 * 1024;
        private UndecodableResults undecodableResults = UndecodableResults.FAIL;

        private Builder() {}

        /** Prefix of every key; default {@code idempotency:}. */
        public Builder keyPrefix(String keyPrefix) {
            Assert.notNull(keyPrefix, "keyPrefix must not be null");
            this.keyPrefix = keyPrefix;
            return this;
        }

        /** Keeps one application's records and tokens apart from another's; empty (the default) for none. */
        public Builder namespace(String namespace) {
            Assert.notNull(namespace, "namespace must not be null");
            this.namespace = namespace;
            return this;
        }

        /** Told about every store operation and every lost lease, e.g. for metrics. */
        public Builder listener(StoreListener listener) {
            Assert.notNull(listener, "listener must not be null");
            this.listener = listener;
            return this;
        }

        /** Whether the timers (lease renewal, waits) run their tasks on virtual threads (Java 21 and later). */
        public Builder virtualThreads(boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
            return this;
        }

        /** Largest result stored, in bytes; a larger one is returned to its caller but not stored. Default 1 MB. */
        public Builder maxResultSize(long bytes) {
            Assert.isTrue(bytes > 0, "maxResultSize must be positive");
            this.maxResultSize = bytes;
            return this;
        }

        /** What a duplicate gets when the stored result of its key cannot be decoded; default {@code FAIL}. */
        public Builder undecodableResults(UndecodableResults undecodableResults) {
            Assert.notNull(undecodableResults, "undecodableResults must not be null");
            this.undecodableResults = undecodableResults;
            return this;
        }

        /**
         * Builds the entry point with these settings; logs a WARN that it protects nothing across instances.
         *
         * @return a new {@link InMemoryIdempotency}
         */
        public InMemoryIdempotency build() {
            return new InMemoryIdempotency(this);
        }
    }
}

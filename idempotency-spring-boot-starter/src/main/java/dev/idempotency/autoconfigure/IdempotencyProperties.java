package dev.idempotency.autoconfigure;

import dev.idempotency.aop.IdempotencyAdvisor;
import dev.idempotency.requestid.UndecodableResults;
import dev.idempotency.web.ReleaseOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of {@code @Idempotent} methods, under {@code idempotency.*}. Checked once bound: a zero or negative
 * duration fails startup with a message naming the property.
 */
@ConfigurationProperties("idempotency")
public class IdempotencyProperties implements InitializingBean {

    /** Whether @Idempotent methods are protected at all. */
    private boolean enabled = true;

    /** Prefix of every Redis key this library writes. */
    private String keyPrefix = "idempotency:";

    /**
     * Keeps this application's records and tokens apart from other applications' on the same Redis and prefix.
     * Default: spring.application.name; empty for none.
     */
    private @Nullable String namespace;

    /** What happens when Redis fails: reject (HTTP 503, method not run) or proceed (run unprotected, WARN log). */
    private StoreFailureMode onStoreFailure = StoreFailureMode.REJECT;

    /** Whether keys are per authenticated user (principal), per tenant (tenant) or shared by all callers (none). */
    private KeyScope scope = KeyScope.PRINCIPAL;

    /** What anonymous callers get with scope principal: one scope shared by all of them, or a 400 (reject). */
    private AnonymousMode anonymous = AnonymousMode.SHARED;

    /**
     * Order of the advisor that applies @Idempotent; the default runs outside @Transactional. Either way, a call that
     * returns inside a transaction is settled when it commits or rolls back.
     */
    private int advisorOrder = IdempotencyAdvisor.DEFAULT_ORDER;

    /**
     * How long the claim or lock of work whose caller went away (disconnected, cancelled, or met the server's async
     * timeout) is still renewed while the work runs on; past it the renewal stops and it expires with its lease.
     */
    private Duration detachedRenewal = Duration.ofMinutes(10);

    /**
     * The most response bytes held back across all protected calls in flight (each response is held until its call
     * is settled); a response that would pass it is treated as larger than max-response-size: sent, not stored.
     */
    private DataSize maxHeldBytes = DataSize.ofMegabytes(64);

    /**
     * Where REQUEST_ID records and tokens live: redis; jdbc (the application's DataSource, PostgreSQL), whose records
     * commit in the same transaction as the method's own writes, locks staying in Redis; or in-memory (records, tokens
     * and locks in this JVM, no Redis: for tests and local runs, it protects nothing across instances).
     */
    private RecordStore store = RecordStore.REDIS;

    private final Jdbc jdbc = new Jdbc();

    private final RequestId requestId = new RequestId();

    private final Token token = new Token();

    private final Lock lock = new Lock();

    private final Redis redis = new Redis();

    private final Tenant tenant = new Tenant();

    /** Named settings blocks, each chosen with @Idempotent(policy = "name"). */
    private final Map<String, Policy> policies = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public @Nullable String getNamespace() {
        return namespace;
    }

    public void setNamespace(@Nullable String namespace) {
        this.namespace = namespace;
    }

    public StoreFailureMode getOnStoreFailure() {
        return onStoreFailure;
    }

    public void setOnStoreFailure(StoreFailureMode onStoreFailure) {
        this.onStoreFailure = onStoreFailure;
    }

    public KeyScope getScope() {
        return scope;
    }

    public void setScope(KeyScope scope) {
        this.scope = scope;
    }

    public AnonymousMode getAnonymous() {
        return anonymous;
    }

    public void setAnonymous(AnonymousMode anonymous) {
        this.anonymous = anonymous;
    }

    public int getAdvisorOrder() {
        return advisorOrder;
    }

    public void setAdvisorOrder(int advisorOrder) {
        this.advisorOrder = advisorOrder;
    }

    public Duration getDetachedRenewal() {
        return detachedRenewal;
    }

    public void setDetachedRenewal(Duration detachedRenewal) {
        this.detachedRenewal = detachedRenewal;
    }

    public DataSize getMaxHeldBytes() {
        return maxHeldBytes;
    }

    public void setMaxHeldBytes(DataSize maxHeldBytes) {
        this.maxHeldBytes = maxHeldBytes;
    }

    public RecordStore getStore() {
        return store;
    }

    public void setStore(RecordStore store) {
        this.store = store;
    }

    public Jdbc getJdbc() {
        return jdbc;
    }

    public RequestId getRequestId() {
        return requestId;
    }

    public Token getToken() {
        return token;
    }

    public Lock getLock() {
        return lock;
    }

    public Redis getRedis() {
        return redis;
    }

    public Tenant getTenant() {
        return tenant;
    }

    public Map<String, Policy> getPolicies() {
        return policies;
    }

    @Override
    public void afterPropertiesSet() {
        PropertiesValidation.validate(this);
    }

    /** What to do when Redis fails. */
    public enum StoreFailureMode {
        /** Answer 503 (or throw) without running the method. */
        REJECT,
        /** Run the method without protection and log a warning. */
        PROCEED
    }

    /** Where {@code REQUEST_ID} records live. */
    public enum RecordStore {
        /** In Redis, with the tokens and locks. */
        REDIS,
        /** In the application's database (idempotency.jdbc.*); the completion joins the method's transaction. */
        JDBC,
        /** Records, tokens and locks in this JVM's memory, without Redis: for tests and local runs. */
        IN_MEMORY
    }

    /** The JDBC record store ({@code idempotency.store: jdbc}). */
    public static class Jdbc {

        /**
         * Table of the records, optionally schema.table; created by dev/idempotency/jdbc/schema-postgresql.sql or
         * schema-mariadb.sql.
         */
        private String table = "idempotency_request";

        /**
         * Statements that run at once, on threads of the store's own or on a caller's that waits for them anyway (never
         * an event loop); keep it at most the connection pool's size.
         */
        private int threads = 8;

        /** The longest one statement may take; a slower one fails its call as store unavailable (503). */
        private Duration queryTimeout = Duration.ofSeconds(5);

        /** How often records whose time is up are deleted; 0 for never (purge them yourself). */
        private Duration purgeInterval = Duration.ofMinutes(5);

        /**
         * Where the store's own statements (claims, renewals, settlements, purges) get connections: auto (a small pool
         * of the store's own, derived from the application's DataSource when that is a connection pool, else shared),
         * own (always derived; startup fails when it cannot be), or shared (the application's pool, which callers'
         * transactions can exhaust).
         */
        private Pool pool = Pool.AUTO;

        public Pool getPool() {
            return pool;
        }

        public void setPool(Pool pool) {
            this.pool = pool;
        }

        public String getTable() {
            return table;
        }

        public void setTable(String table) {
            this.table = table;
        }

        public int getThreads() {
            return threads;
        }

        public void setThreads(int threads) {
            this.threads = threads;
        }

        public Duration getQueryTimeout() {
            return queryTimeout;
        }

        public void setQueryTimeout(Duration queryTimeout) {
            this.queryTimeout = queryTimeout;
        }

        public Duration getPurgeInterval() {
            return purgeInterval;
        }

        public void setPurgeInterval(Duration purgeInterval) {
            this.purgeInterval = purgeInterval;
        }
    }

    /** Where the JDBC store's own statements get their connections. */
    public enum Pool {
        /** A pool of the store's own when one can be derived from a pooled DataSource, else shared. */
        AUTO,
        /** A pool of the store's own, derived from the application's DataSource, sized to the store's threads. */
        OWN,
        /** The application's own pool. */
        SHARED
    }

    /** What anonymous callers get when keys are per user. */
    public enum AnonymousMode {
        /** All anonymous callers share one scope. */
        SHARED,
        /** Protected operations answer 400 (problem type anonymous-not-allowed) to anonymous callers. */
        REJECT
    }

    /** Who shares a key. */
    public enum KeyScope {
        /** Keys are per authenticated user; anonymous callers share one scope. */
        PRINCIPAL,
        /** Keys are per tenant, read from the authenticated JWT's (or principal's) {@code idempotency.tenant.claim}. */
        TENANT,
        /** Keys are shared by every caller. */
        NONE
    }

    /** Settings of the {@code REQUEST_ID} strategy. */
    public static class RequestId {

        /** HTTP header that carries the client's idempotency key. */
        private String header = "Idempotency-Key";

        /** How long a completed response is kept and replayed. */
        private Duration ttl = Duration.ofHours(24);

        /** Lifetime of an in-progress claim; renewed while the method runs, so a crash blocks a key this long. */
        private Duration lease = Duration.ofSeconds(30);

        /** How long a duplicate waits for the original to finish before 409; zero answers 409 at once. */
        private Duration wait = Duration.ZERO;

        /** Whether the same key with a different payload is rejected with 422. */
        private boolean fingerprint = true;

        /**
         * What a call without a key gets: reject (HTTP 400 missing-key) or proceed (it runs unprotected and is counted
         * as idempotency.requests{outcome=no_key}), to watch clients adopt the header before enforcing it.
         */
        private MissingKey missingKey = MissingKey.REJECT;

        /**
         * Largest response stored for replay; a larger one is returned but not stored, and duplicates get 409
         * result-not-stored instead of a second execution.
         */
        private DataSize maxResponseSize = DataSize.ofMegabytes(1);

        /**
         * What a duplicate gets when the stored result cannot be decoded (a deploy changed its type): fail (409
         * result-not-stored, the work is not run again) or rerun (the result is discarded and the work runs again).
         */
        private UndecodableResults undecodableResults = UndecodableResults.FAIL;

        public UndecodableResults getUndecodableResults() {
            return undecodableResults;
        }

        public void setUndecodableResults(UndecodableResults undecodableResults) {
            this.undecodableResults = undecodableResults;
        }

        /**
         * Response headers a replay repeats besides Content-Type, Location and ETag; credentials and hop-by-hop headers
         * are never stored.
         */
        private List<String> replayedHeaders = new ArrayList<>();

        /**
         * Outcomes that release the claim so that a retry runs again: exception, client-error-exception, server-error,
         * client-error. Every other outcome is stored and replayed as sent.
         */
        private Set<ReleaseOutcome> releaseOn = ReleaseOutcome.defaults();

        public Set<ReleaseOutcome> getReleaseOn() {
            return releaseOn;
        }

        public void setReleaseOn(Set<ReleaseOutcome> releaseOn) {
            this.releaseOn = releaseOn;
        }

        public List<String> getReplayedHeaders() {
            return replayedHeaders;
        }

        public void setReplayedHeaders(List<String> replayedHeaders) {
            this.replayedHeaders = replayedHeaders;
        }

        public String getHeader() {
            return header;
        }

        public void setHeader(String header) {
            this.header = header;
        }

        public Duration getTtl() {
            return ttl;
        }

        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        public Duration getLease() {
            return lease;
        }

        public void setLease(Duration lease) {
            this.lease = lease;
        }

        public Duration getWait() {
            return wait;
        }

        public void setWait(Duration wait) {
            this.wait = wait;
        }

        public boolean isFingerprint() {
            return fingerprint;
        }

        public void setFingerprint(boolean fingerprint) {
            this.fingerprint = fingerprint;
        }

        public DataSize getMaxResponseSize() {
            return maxResponseSize;
        }

        public MissingKey getMissingKey() {
            return missingKey;
        }

        public void setMissingKey(MissingKey missingKey) {
            this.missingKey = missingKey;
        }

        public void setMaxResponseSize(DataSize maxResponseSize) {
            this.maxResponseSize = maxResponseSize;
        }
    }

    /** What a {@code REQUEST_ID} call without a key gets. */
    public enum MissingKey {
        /** HTTP 400 missing-key (a {@code MissingIdempotencyKeyException} outside HTTP); the method does not run. */
        REJECT,
        /** The method runs without protection, counted with the outcome {@code no_key}: for a rollout. */
        PROCEED
    }

    /** Settings of the {@code TOKEN} strategy. */
    public static class Token {

        /** HTTP header that carries the one-time token. */
        private String header = "Idempotency-Token";

        /** How long an issued token stays valid. */
        private Duration ttl = Duration.ofMinutes(10);

        private final Endpoint endpoint = new Endpoint();

        public String getHeader() {
            return header;
        }

        public void setHeader(String header) {
            this.header = header;
        }

        public Duration getTtl() {
            return ttl;
        }

        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        public Endpoint getEndpoint() {
            return endpoint;
        }

        /** The HTTP endpoint that issues tokens. */
        public static class Endpoint {

            /**
             * Whether the token endpoint is registered; when unset, it is registered only if the application has a
             * TOKEN operation.
             */
            private @Nullable Boolean enabled;

            /** Path of the token endpoint (a POST issues a token). */
            private String path = "/idempotency/tokens";

            /**
             * Whether anonymous callers get tokens: true for forms on public pages (each client address then has its
             * own bound); false answers them 400 anonymous-not-allowed.
             */
            private boolean anonymous = true;

            /**
             * Tokens one caller (an authenticated scope, or an anonymous client address) may get per minute; past it,
             * 429 with Retry-After. 0 for no bound.
             */
            private int maxPerCaller = 60;

            /** Tokens the application may issue per minute, all callers together; past it, 429. 0 for no bound. */
            private int maxTotal = 6000;

            public boolean isAnonymous() {
                return anonymous;
            }

            public void setAnonymous(boolean anonymous) {
                this.anonymous = anonymous;
            }

            public int getMaxPerCaller() {
                return maxPerCaller;
            }

            public void setMaxPerCaller(int maxPerCaller) {
                this.maxPerCaller = maxPerCaller;
            }

            public int getMaxTotal() {
                return maxTotal;
            }

            public void setMaxTotal(int maxTotal) {
                this.maxTotal = maxTotal;
            }

            public @Nullable Boolean getEnabled() {
                return enabled;
            }

            public void setEnabled(@Nullable Boolean enabled) {
                this.enabled = enabled;
            }

            public String getPath() {
                return path;
            }

            public void setPath(String path) {
                this.path = path;
            }
        }
    }

    /** Settings of the {@code LOCK} strategy. */
    public static class Lock {

        /** Lease of a held lock; a watchdog renews it while the method runs. */
        private Duration lease = Duration.ofSeconds(30);

        /** How long a caller waits for a busy lock before 409; zero answers 409 at once. */
        private Duration wait = Duration.ZERO;

        public Duration getLease() {
            return lease;
        }

        public void setLease(Duration lease) {
            this.lease = lease;
        }

        public Duration getWait() {
            return wait;
        }

        public void setWait(Duration wait) {
            this.wait = wait;
        }
    }

    /** Guarantees asked of Redis replication. */
    public static class Redis {

        /**
         * Replicas that must acknowledge each claim, lock and token use (Redis WAIT, on the write's own connection to
         * the node that owns the key) before the method runs, and each completion (the answer waits for its first
         * attempt; one no replica confirmed in time is sent again while the claim's lease lasts, so a failover
         * meanwhile does not run the work again); 0 switches it off.
         */
        private int waitForReplicas = 0;

        /**
         * How long a write waits for those acknowledgements (and for a free connection to its node); a claim, lock or
         * token use not confirmed in time is undone and answered 503.
         */
        private Duration waitForReplicasTimeout = Duration.ofMillis(200);

        public int getWaitForReplicas() {
            return waitForReplicas;
        }

        public void setWaitForReplicas(int waitForReplicas) {
            this.waitForReplicas = waitForReplicas;
        }

        public Duration getWaitForReplicasTimeout() {
            return waitForReplicasTimeout;
        }

        public void setWaitForReplicasTimeout(Duration waitForReplicasTimeout) {
            this.waitForReplicasTimeout = waitForReplicasTimeout;
        }
    }

    /** How {@code scope: tenant} finds the tenant. */
    public static class Tenant {

        /** JWT claim (or principal attribute) that names the caller's tenant. */
        private String claim = "tenant_id";

        /**
         * What an authenticated caller without the claim gets: reject (HTTP 403 tenant-missing) or anonymous (it
         * follows idempotency.anonymous, sharing one scope with every other such caller by default).
         */
        private MissingTenant missing = MissingTenant.REJECT;

        public String getClaim() {
            return claim;
        }

        public void setClaim(String claim) {
            this.claim = claim;
        }

        public MissingTenant getMissing() {
            return missing;
        }

        public void setMissing(MissingTenant missing) {
            this.missing = missing;
        }
    }

    /** What an authenticated caller without a tenant gets with scope tenant. */
    public enum MissingTenant {
        /** Refused with HTTP 403 tenant-missing. */
        REJECT,
        /** Treated as anonymous. */
        ANONYMOUS
    }

    /** A named block of settings; each unset value falls back to the strategy's default. */
    public static class Policy {

        /** How long a completed response (REQUEST_ID) is kept. */
        private @Nullable Duration ttl;

        /** Lease of a claim (REQUEST_ID) or a lock (LOCK). */
        private @Nullable Duration lease;

        /** How long a duplicate (REQUEST_ID) or a caller of a busy lock (LOCK) waits. */
        private @Nullable Duration wait;

        /** HTTP header that carries the key (REQUEST_ID) or token (TOKEN). */
        private @Nullable String header;

        /** Whether a different payload under the same key is rejected with 422 (REQUEST_ID). */
        private @Nullable Boolean fingerprint;

        /**
         * The members of a JSON payload that count for the fingerprint, as JSON Pointers such as /amount (the request
         * body or record value; a bean method's arguments as an array, /0/amount). Empty: the whole payload.
         */
        private List<String> fingerprintFields = new ArrayList<>();

        /** What happens when Redis fails, for methods of this policy. */
        private @Nullable StoreFailureMode onStoreFailure;

        /** Outcomes that release the claim instead of storing the response (REQUEST_ID). */
        private @Nullable Set<ReleaseOutcome> releaseOn;

        /** What a call without a key gets, for methods of this policy (REQUEST_ID): reject or proceed. */
        private @Nullable MissingKey missingKey;

        public @Nullable MissingKey getMissingKey() {
            return missingKey;
        }

        public void setMissingKey(@Nullable MissingKey missingKey) {
            this.missingKey = missingKey;
        }

        public @Nullable Set<ReleaseOutcome> getReleaseOn() {
            return releaseOn;
        }

        public void setReleaseOn(@Nullable Set<ReleaseOutcome> releaseOn) {
            this.releaseOn = releaseOn;
        }

        public @Nullable Duration getTtl() {
            return ttl;
        }

        public void setTtl(@Nullable Duration ttl) {
            this.ttl = ttl;
        }

        public @Nullable Duration getLease() {
            return lease;
        }

        public void setLease(@Nullable Duration lease) {
            this.lease = lease;
        }

        public @Nullable Duration getWait() {
            return wait;
        }

        public void setWait(@Nullable Duration wait) {
            this.wait = wait;
        }

        public @Nullable String getHeader() {
            return header;
        }

        public void setHeader(@Nullable String header) {
            this.header = header;
        }

        public @Nullable Boolean getFingerprint() {
            return fingerprint;
        }

        public List<String> getFingerprintFields() {
            return fingerprintFields;
        }

        public void setFingerprintFields(List<String> fingerprintFields) {
            this.fingerprintFields = fingerprintFields;
        }

        public void setFingerprint(@Nullable Boolean fingerprint) {
            this.fingerprint = fingerprint;
        }

        public @Nullable StoreFailureMode getOnStoreFailure() {
            return onStoreFailure;
        }

        public void setOnStoreFailure(@Nullable StoreFailureMode onStoreFailure) {
            this.onStoreFailure = onStoreFailure;
        }
    }
}

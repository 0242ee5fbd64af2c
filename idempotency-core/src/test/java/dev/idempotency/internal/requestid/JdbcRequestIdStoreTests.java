package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.ResultNotStoredException;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.requestid.UndecodableResults;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Database;
import dev.idempotency.testsupport.OnEveryDatabase;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.Topologies;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The {@code REQUEST_ID} contract on every database (the shipped schema): one execution per key under races,
 * replays, payload mismatches, released claims, leases that run out, results not kept, purges, and completions that
 * commit, or roll back, with the work's own transaction.
 */
class JdbcRequestIdStoreTests extends OnEveryDatabase {

    private static final Duration TTL = Duration.ofMinutes(5);
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final ResultCodec<String> TEXT = ResultCodec.utf8();

    private Database database;
    private DataSource dataSource;
    private JdbcTemplate jdbc;
    private TransactionTemplate transactions;
    private Scheduling scheduling;
    private LeaseRenewer renewer;
    private final RedisKeys keys = new RedisKeys("jdbc-test:" + UUID.randomUUID() + ":");
    private JdbcRequestIdStore store;
    private RequestIdStrategy requestIds;

    @Override
    protected void open(Database database) {
        scheduling = new Scheduling();
        renewer = new LeaseRenewer(scheduling, StoreListener.NONE);
        this.database = database;
        dataSource = database.dataSource();
        jdbc = new JdbcTemplate(dataSource);
        transactions = JdbcFixture.transactions(dataSource);
        JdbcFixture.createSchema(database);
        jdbc.execute(
                database == Database.POSTGRESQL
                        ? "CREATE TABLE IF NOT EXISTS jdbc_store_orders (id text, run int,"
                                + " CONSTRAINT jdbc_store_orders_unique UNIQUE (id, run) DEFERRABLE INITIALLY DEFERRED)"
                        : "CREATE TABLE IF NOT EXISTS jdbc_store_orders (id text, run int)");
        store = JdbcRequestIdStore.open(JdbcStore.of(dataSource), StoreListener.NONE);
        requestIds = strategy(Long.MAX_VALUE);
    }

    @AfterParameterizedClassInvocation(injectArguments = false)
    void close() {
        store.close();
        renewer.close();
        scheduling.close();
    }

    private RequestIdStrategy strategy(long maxResultSize) {
        return new RequestIdStrategy(
                store, StoreListener.NONE, keys, renewer, scheduling, maxResultSize, UndecodableResults.FAIL);
    }

    private RequestIdCall call(String key, String fingerprint, Duration wait) {
        return new RequestIdCall(keys.requestId("", "orders", key), fingerprint, TTL, LEASE, wait);
    }

    private RequestIdCall call(String key) {
        return call(key, null, Duration.ZERO);
    }

    private String state(String key) {
        List<String> states = jdbc.queryForList(
                "SELECT state FROM idempotency_request WHERE record_key = ?",
                String.class,
                keys.requestId("", "orders", key));
        return states.isEmpty() ? "absent" : states.get(0);
    }

    @Test
    void theFirstCallRunsAndDuplicatesGetItsResult() {
        String key = UUID.randomUUID().toString();
        AtomicInteger runs = new AtomicInteger();
        assertThat(requestIds.execute(call(key), () -> "order-" + runs.incrementAndGet(), TEXT))
                .isEqualTo("order-1");
        assertThat(requestIds.execute(call(key), () -> "order-" + runs.incrementAndGet(), TEXT))
                .isEqualTo("order-1");
        assertThat(runs).hasValue(1);
        assertThat(state(key)).isEqualTo("C");
    }

    @Test
    void concurrentCallsWithOneKeyRunTheWorkOnce() throws Exception {
        String[] keys = {UUID.randomUUID().toString(), UUID.randomUUID().toString()};
        AtomicInteger[] runs = {new AtomicInteger(), new AtomicInteger()};
        Race.run(8, 64, i -> {
            int k = i % 2;
            String result = requestIds.execute(
                    call(keys[k], null, Duration.ofSeconds(20)), () -> "run-" + runs[k].incrementAndGet(), TEXT);
            assertThat(result).isEqualTo("run-1");
        });
        assertThat(runs[0]).hasValue(1);
        assertThat(runs[1]).hasValue(1);
    }

    @Test
    void aDifferentPayloadWithTheSameKeyIsRefused() {
        String key = UUID.randomUUID().toString();
        requestIds.execute(call(key, "a".repeat(22), Duration.ZERO), () -> "first", TEXT);
        assertThatThrownBy(() -> requestIds.execute(call(key, "b".repeat(22), Duration.ZERO), () -> "second", TEXT))
                .isInstanceOf(PayloadMismatchException.class);
    }

    @Test
    void workThatThrowsReleasesTheClaimSoTheRetryRuns() {
        String key = UUID.randomUUID().toString();
        assertThatThrownBy(() -> requestIds.execute(
                        call(key),
                        () -> {
                            throw new IllegalStateException("declined");
                        },
                        TEXT))
                .hasMessage("declined");
        assertThat(state(key)).isEqualTo("absent");
        assertThat(requestIds.execute(call(key), () -> "second", TEXT)).isEqualTo("second");
    }

    @Test
    void aDuplicateMeetsTheRunningOriginalThenGetsItsResult() throws Exception {
        String key = UUID.randomUUID().toString();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        CompletableFuture<String> original = CompletableFuture.supplyAsync(() -> requestIds.execute(
                call(key),
                () -> {
                    started.countDown();
                    Await.latch(finish, "finish");
                    return "original";
                },
                TEXT));
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(state(key)).isEqualTo("P");
        assertThatThrownBy(() -> requestIds.execute(call(key), () -> "duplicate", TEXT))
                .isInstanceOf(RequestInProgressException.class);
        CompletableFuture<String> waiting = CompletableFuture.supplyAsync(
                () -> requestIds.execute(call(key, null, Duration.ofSeconds(30)), () -> "duplicate", TEXT));
        finish.countDown();
        assertThat(original.get(30, TimeUnit.SECONDS)).isEqualTo("original");
        assertThat(waiting.get(30, TimeUnit.SECONDS)).isEqualTo("original");
    }

    @Test
    void aClaimWhoseLeaseRanOutIsTakenOverAndItsOwnerCanNoLongerRelease() {
        String recordKey = keys.requestId("", "orders", UUID.randomUUID().toString());
        String print = RequestRecord.NO_FINGERPRINT;
        ClaimOutcome first = Futures.join(store.claim(recordKey, print, Duration.ofMillis(200)));
        assertThat(first).isInstanceOf(ClaimOutcome.Acquired.class);
        assertThat(Futures.join(store.claim(recordKey, print, LEASE))).isInstanceOf(ClaimOutcome.InProgress.class);
        Await.until(
                Duration.ofSeconds(30),
                "the first lease to run out",
                () -> Futures.join(store.claim(recordKey, print, LEASE)) instanceof ClaimOutcome.Acquired);
        Claim stale = ((ClaimOutcome.Acquired) first).claim();
        assertThat(Futures.join(store.release(stale)))
                .as("the stale owner's release")
                .isFalse();
        assertThat(Futures.join(store.renew(stale, LEASE)))
                .as("the stale owner's renewal")
                .isFalse();
    }

    @Test
    void aResultTooLargeToKeepStillCompletesTheKey() {
        String key = UUID.randomUUID().toString();
        RequestIdStrategy small = strategy(4);
        AtomicInteger runs = new AtomicInteger();
        assertThat(small.execute(call(key), () -> "too large " + runs.incrementAndGet(), TEXT))
                .isEqualTo("too large 1");
        assertThat(state(key)).isEqualTo("N");
        assertThatThrownBy(() -> small.execute(call(key), () -> "again " + runs.incrementAndGet(), TEXT))
                .isInstanceOf(ResultNotStoredException.class);
        assertThat(runs).hasValue(1);
    }

    @Test
    void theCompletionCommitsWithTheWorksTransaction() {
        String key = UUID.randomUUID().toString();
        String seenBeforeCommit = transactions.execute(status -> {
            requestIds.execute(call(key), () -> order(key, 1), TEXT);
            // Another connection does not see the completion before the commit: it is in this transaction.
            return state(key);
        });
        assertThat(seenBeforeCommit).isEqualTo("P");
        assertThat(state(key)).isEqualTo("C");
        if (database == Database.POSTGRESQL) {
            // Written by the very transaction that wrote the order: a crash can never keep one without the other.
            assertThat(jdbc.queryForObject(
                            "SELECT xmin::text FROM idempotency_request WHERE record_key = ?",
                            String.class,
                            keys.requestId("", "orders", key)))
                    .isEqualTo(jdbc.queryForObject(
                            "SELECT xmin::text FROM jdbc_store_orders WHERE id = ?", String.class, key));
        }
        assertThat(requestIds.execute(call(key), () -> order(key, 2), TEXT)).isEqualTo("order 1");
        assertThat(orders(key)).isEqualTo(1);
    }

    @Test
    void aRolledBackTransactionReleasesTheClaimAndLeavesNoCompletion() {
        String key = UUID.randomUUID().toString();
        assertThatThrownBy(() -> transactions.executeWithoutResult(status -> {
                    requestIds.execute(call(key), () -> order(key, 1), TEXT);
                    throw new IllegalStateException("payment declined");
                }))
                .hasMessage("payment declined");
        assertThat(state(key)).isEqualTo("absent");
        assertThat(orders(key)).isZero();
        assertThat(orderInTransaction(key, 2)).isEqualTo("order 2");
        assertThat(orders(key)).isEqualTo(1);
    }

    @Test
    void aCommitThatFailsTakesTheCompletionWithItAndTheRetryRuns() {
        String key = UUID.randomUUID().toString();
        assertThatThrownBy(() -> transactions.executeWithoutResult(status -> {
                    requestIds.execute(
                            call(key),
                            () -> {
                                String result = order(key, 1);
                                JdbcFixture.failTheCommit(database, () -> order(key, 1));
                                return result;
                            },
                            TEXT);
                }))
                .isInstanceOf(TransactionSystemException.class)
                .rootCause()
                .hasMessageContaining(JdbcFixture.commitFailure(database, "jdbc_store_orders_unique"));
        assertThat(state(key)).isEqualTo("absent");
        assertThat(orders(key)).isZero();
        assertThat(orderInTransaction(key, 2)).isEqualTo("order 2");
        assertThat(orderInTransaction(key, 3)).isEqualTo("order 2");
        assertThat(orders(key)).isEqualTo(1);
    }

    @Test
    void aTransactionThatCommitsInsideTheCallMarksTheClaimCommittedWithIt() {
        String key = UUID.randomUUID().toString();
        String[] seen = new String[2];
        String result = requestIds.execute(
                call(key),
                () -> {
                    transactions.executeWithoutResult(status -> {
                        order(key, 1);
                        seen[0] = state(key); // another connection, before the commit
                    });
                    seen[1] = state(key);
                    return "order 1";
                },
                TEXT);
        assertThat(result).isEqualTo("order 1");
        assertThat(seen).containsExactly("P", "D");
        assertThat(state(key)).isEqualTo("C");
        assertThat(requestIds.execute(call(key), () -> order(key, 2), TEXT)).isEqualTo("order 1");
    }

    @Test
    void workWhoseTransactionCommittedIsNeverRunAgainEvenIfTheCallThenFails() {
        String key = UUID.randomUUID().toString();
        assertThatThrownBy(() -> requestIds.execute(
                        call(key),
                        () -> {
                            transactions.executeWithoutResult(status -> order(key, 1));
                            throw new IllegalStateException("the answer could not be made");
                        },
                        TEXT))
                .hasMessage("the answer could not be made");
        assertThat(state(key)).as("completed without an answer, not released").isEqualTo("N");
        assertThatThrownBy(() -> requestIds.execute(call(key), () -> order(key, 2), TEXT))
                .isInstanceOf(ResultNotStoredException.class);
        assertThat(orders(key)).isEqualTo(1);
    }

    @Test
    void anOwnerThatDiedAfterItsCommitLeavesTheKeyDoneNotFree() throws Exception {
        String key = UUID.randomUUID().toString();
        try (Scheduling doomedTimers = new Scheduling();
                LeaseRenewer doomedRenewer = new LeaseRenewer(doomedTimers, StoreListener.NONE)) {
            RequestIdStrategy doomed = new RequestIdStrategy(
                    store,
                    StoreListener.NONE,
                    keys,
                    doomedRenewer,
                    doomedTimers,
                    Long.MAX_VALUE,
                    UndecodableResults.FAIL);
            RequestIdCall shortLease = new RequestIdCall(
                    keys.requestId("", "orders", key), null, TTL, Duration.ofMillis(300), Duration.ZERO);
            CountDownLatch committed = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            CompletableFuture<String> dying = CompletableFuture.supplyAsync(() -> doomed.execute(
                    shortLease,
                    () -> {
                        transactions.executeWithoutResult(status -> order(key, 1));
                        doomedRenewer.close(); // the process "dies": no more renewals, no answer
                        committed.countDown();
                        Await.latch(never, "never");
                        return "never answered";
                    },
                    TEXT));
            Await.latch(committed, "committed");
            assertThat(state(key)).isEqualTo("D");
            Await.until(Duration.ofSeconds(30), "the dead owner's lease to run out", () -> {
                try {
                    requestIds.execute(call(key), () -> order(key, 2), TEXT);
                    return true;
                } catch (RequestInProgressException stillRunning) {
                    return false;
                } catch (ResultNotStoredException ranAndLost) {
                    return true;
                }
            });
            assertThatThrownBy(() -> requestIds.execute(call(key), () -> order(key, 3), TEXT))
                    .isInstanceOf(ResultNotStoredException.class);
            assertThat(orders(key)).as("the business rows, exactly once").isEqualTo(1);
            never.countDown();
            dying.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aClaimTakenOverBeforeItsWorkCommitsRollsTheWorkBack() {
        String recordKey = keys.requestId("", "orders", UUID.randomUUID().toString());
        ClaimOutcome mine = Futures.join(store.claim(recordKey, RequestRecord.NO_FINGERPRINT, Duration.ofMillis(200)));
        Await.until(
                Duration.ofSeconds(30),
                "another caller to take the expired claim over",
                () -> Futures.join(store.claim(recordKey, RequestRecord.NO_FINGERPRINT, LEASE))
                        instanceof ClaimOutcome.Acquired);
        ClaimPermit stale = new ClaimPermit(
                store,
                ((ClaimOutcome.Acquired) mine).claim(),
                null,
                TTL,
                Duration.ofMillis(200),
                renewer,
                scheduling,
                Long.MAX_VALUE,
                StoreListener.NONE);
        assertThatThrownBy(() -> stale.callWithin(() -> {
                    transactions.executeWithoutResult(status -> order(recordKey, 1));
                    return null;
                }))
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining("taken over");
        assertThat(orders(recordKey))
                .as("the stale owner's work did not commit")
                .isZero();
        Futures.join(stale.fail());
    }

    @Test
    void expiredRecordsArePurgedAndLiveOnesKept() {
        String live = keys.requestId("", "orders", UUID.randomUUID().toString());
        String expired = keys.requestId("", "orders", UUID.randomUUID().toString());
        Claim claim = ((ClaimOutcome.Acquired) Futures.join(store.claim(expired, RequestRecord.NO_FINGERPRINT, LEASE)))
                .claim();
        Futures.join(store.complete(claim, new byte[] {1}, Duration.ofMillis(1)));
        Futures.join(store.claim(live, RequestRecord.NO_FINGERPRINT, LEASE));
        Await.until(Duration.ofSeconds(30), "the expired record to be purged", () -> {
            store.purgeExpired(1000);
            return jdbc.queryForObject(
                            "SELECT count(*) FROM idempotency_request WHERE record_key = ?", Integer.class, expired)
                    == 0;
        });
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM idempotency_request WHERE record_key = ?", Integer.class, live))
                .isEqualTo(1);
    }

    @Test
    void aMissingTableFailsTheSetupAndNamesTheSchemaToRun() {
        LettuceConnectionFactory redis = Topologies.STANDALONE.newConnectionFactory();
        try {
            assertThatThrownBy(() -> RedisIdempotency.builder(redis)
                            .recordStore(JdbcStore.of(dataSource).withTable("no_such_records"))
                            .build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("no_such_records")
                    .hasMessageContaining(JdbcStore.POSTGRESQL_SCHEMA);
        } finally {
            redis.destroy();
        }
    }

    @Test
    void theEntryPointPurgesOnItsScheduleAndDeletesRecordsByHand() {
        LettuceConnectionFactory redis = Topologies.STANDALONE.newConnectionFactory();
        try (RedisIdempotency idempotency = RedisIdempotency.builder(redis)
                .keyPrefix("jdbc-entry:" + UUID.randomUUID() + ":")
                .recordStore(JdbcStore.of(dataSource).withPurgeInterval(Duration.ofMillis(50)))
                .build()) {
            String kept = UUID.randomUUID().toString();
            String shortLived = UUID.randomUUID().toString();
            RequestIdExecutor requestIds = idempotency.requestIds();
            String keptKey = idempotency.keys().requestId("", "orders", kept);
            requestIds.execute(new RequestIdCall(keptKey, null, TTL, LEASE, Duration.ZERO), () -> "kept", TEXT);
            String shortKey = idempotency.keys().requestId("", "orders", shortLived);
            requestIds.execute(
                    new RequestIdCall(shortKey, null, Duration.ofMillis(1), LEASE, Duration.ZERO), () -> "gone", TEXT);
            Await.until(Duration.ofSeconds(30), "the scheduled purge", () -> rows(shortKey) == 0);
            assertThat(rows(keptKey)).isEqualTo(1);
            assertThat(Futures.join(idempotency.deleteRequestIdRecord(keptKey))).isTrue();
            assertThat(rows(keptKey)).isZero();
        } finally {
            redis.destroy();
        }
    }

    private int rows(String recordKey) {
        return jdbc.queryForObject(
                "SELECT count(*) FROM idempotency_request WHERE record_key = ?", Integer.class, recordKey);
    }

    @Test
    void aCallerThatWaitsClaimsAndSettlesOnItsOwnThreadAndAnAsynchronousOneOnTheStoresThreads() {
        List<String> ranOn = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        StoreListener threads = new StoreListener() {
            @Override
            public void onCall(String store, String kind, long nanos, boolean failed) {
                ranOn.add(kind + " " + Thread.currentThread().getName());
            }
        };
        String caller = Thread.currentThread().getName();
        try (JdbcRequestIdStore watched = JdbcRequestIdStore.open(JdbcStore.of(dataSource), threads)) {
            RequestIdStrategy blocking = new RequestIdStrategy(
                    watched, StoreListener.NONE, keys, renewer, scheduling, Long.MAX_VALUE, UndecodableResults.FAIL);
            String key = UUID.randomUUID().toString();
            assertThat(blocking.execute(call(key), () -> "ran", TEXT)).isEqualTo("ran");
            assertThatThrownBy(() -> blocking.execute(
                            call(key + "-fails"),
                            () -> {
                                throw new IllegalStateException("failed");
                            },
                            TEXT))
                    .hasMessage("failed");
            assertThat(ranOn)
                    .containsExactly("claim " + caller, "complete " + caller, "claim " + caller, "release " + caller);
            ranOn.clear();
            assertThat(Futures.join(watched.claim(keys.requestId("", "orders", key + "-async"), "f", LEASE)))
                    .isInstanceOf(ClaimOutcome.Acquired.class);
            assertThat(ranOn).singleElement().asString().startsWith("claim idempotency-jdbc-");
            // In a transaction, a connection asked for may be the transaction's (TransactionAwareDataSourceProxy).
            ranOn.clear();
            transactions.executeWithoutResult(
                    status -> assertThat(blocking.execute(call(key + "-in-transaction"), () -> "ran", TEXT))
                            .isEqualTo("ran"));
            assertThat(ranOn).first().asString().startsWith("claim idempotency-jdbc-");
        }
    }

    @Test
    void aFirstClaimIsOneStatementAndADuplicateTwo() {
        AtomicInteger prepared = new AtomicInteger();
        try (JdbcRequestIdStore counted = JdbcRequestIdStore.open(
                JdbcStore.of(dataSource).withOwnConnections(countingStatements(dataSource, prepared)),
                StoreListener.NONE)) {
            String recordKey = keys.requestId("", "orders", UUID.randomUUID().toString());
            Futures.join(counted.claim(keys.requestId("", "orders", "warm-up-" + recordKey), "f", LEASE));
            prepared.set(0);
            assertThat(Futures.join(counted.claim(recordKey, "f", LEASE))).isInstanceOf(ClaimOutcome.Acquired.class);
            assertThat(prepared).hasValue(1);
            prepared.set(0);
            assertThat(Futures.join(counted.claim(recordKey, "f", LEASE))).isInstanceOf(ClaimOutcome.InProgress.class);
            assertThat(prepared).hasValue(2);
        }
    }

    /** Connections of {@code target} that count the statements prepared on them. */
    private static DataSource countingStatements(DataSource target, AtomicInteger prepared) {
        return new org.springframework.jdbc.datasource.DelegatingDataSource(target) {
            @Override
            public java.sql.Connection getConnection() throws java.sql.SQLException {
                java.sql.Connection connection = super.getConnection();
                return (java.sql.Connection) java.lang.reflect.Proxy.newProxyInstance(
                        java.sql.Connection.class.getClassLoader(),
                        new Class<?>[] {java.sql.Connection.class},
                        (proxy, method, arguments) -> {
                            if (method.getName().equals("prepareStatement")) {
                                prepared.incrementAndGet();
                            }
                            try {
                                return method.invoke(connection, arguments);
                            } catch (java.lang.reflect.InvocationTargetException ex) {
                                throw ex.getCause();
                            }
                        });
            }
        };
    }

    @Test
    void anUnreachableDatabaseIsAStoreFailureBeforeTheWorkRuns() {
        org.postgresql.ds.PGSimpleDataSource nowhere = new org.postgresql.ds.PGSimpleDataSource();
        nowhere.setURL("jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2");
        try (JdbcRequestIdStore down = JdbcRequestIdStore.open(JdbcStore.of(nowhere), StoreListener.NONE)) {
            RequestIdStrategy unreachable = new RequestIdStrategy(
                    down, StoreListener.NONE, keys, renewer, scheduling, Long.MAX_VALUE, UndecodableResults.FAIL);
            AtomicInteger runs = new AtomicInteger();
            assertThatThrownBy(() -> unreachable.execute(call("k"), () -> "run " + runs.incrementAndGet(), TEXT))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class);
            assertThat(runs).hasValue(0);
        }
    }

    private String orderInTransaction(String key, int run) {
        String result = transactions.execute(status -> requestIds.execute(call(key), () -> order(key, run), TEXT));
        return result;
    }

    private String order(String key, int run) {
        jdbc.update("INSERT INTO jdbc_store_orders (id, run) VALUES (?, ?)", key, run);
        return "order " + run;
    }

    private int orders(String key) {
        return jdbc.queryForObject("SELECT count(*) FROM jdbc_store_orders WHERE id = ?", Integer.class, key);
    }
}

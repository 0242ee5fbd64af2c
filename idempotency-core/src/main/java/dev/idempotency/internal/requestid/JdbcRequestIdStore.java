package dev.idempotency.internal.requestid;

import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.jdbc.DialectStatements;
import dev.idempotency.internal.jdbc.JdbcConnections;
import dev.idempotency.internal.lease.Owners;
import dev.idempotency.jdbc.JdbcMigrations;
import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.spi.StoreListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code REQUEST_ID} records in a table of the application's database (PostgreSQL, MariaDB or MySQL; the schemas ship
 * as {@code dev/idempotency/jdbc/schema-*.sql}); one row a key, its states in {@link JdbcRecordStatements}. A first
 * call costs one statement (an insert that leaves a taken key alone); a duplicate two (that, and a read that takes no
 * lock). A caller that waits for each answer anyway runs the statements on its own thread when the store has a thread
 * free ({@link #onWaitingThread}). The claim commits at once, on a connection of its own. Inside the work's transaction
 * the store writes on that transaction's connection, so that its mark commits, or rolls back, with the business rows: a
 * completion made there, or the mark that the work committed ({@code D}), after which the work never runs again for its
 * key.
 */
public final class JdbcRequestIdStore implements RequestIdStore, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JdbcRequestIdStore.class);

    private final JdbcConnections connections;
    private final DialectStatements<JdbcRecordStatements> statements;
    private final String table;
    private final boolean here;
    private final JdbcRequestIdStore onWaitingThread;
    private volatile @Nullable ScheduledFuture<?> purging;

    /** A store on the settings' database, with connections of its own; close them with {@link #close}. */
    public static JdbcRequestIdStore open(JdbcStore settings, StoreListener listener) {
        return new JdbcRequestIdStore(
                new JdbcConnections(
                        settings.dataSource(),
                        settings.ownConnections(),
                        settings.threads(),
                        settings.queryTimeout(),
                        listener),
                settings.table());
    }

    /** @param table the records' table, optionally with its schema, checked by {@code JdbcStore} */
    JdbcRequestIdStore(JdbcConnections connections, String table) {
        this.connections = connections;
        this.statements = new DialectStatements<>(connections, dialect -> new JdbcRecordStatements(dialect, table));
        this.table = table;
        this.here = false;
        this.onWaitingThread = new JdbcRequestIdStore(this);
    }

    /** The view of {@code shared} whose statements run on the caller's thread when a store thread is free. */
    private JdbcRequestIdStore(JdbcRequestIdStore shared) {
        this.connections = shared.connections;
        this.statements = shared.statements;
        this.table = shared.table;
        this.here = true;
        this.onWaitingThread = this;
    }

    /** How it reaches the database; the JDBC token store shares them. */
    public JdbcConnections connections() {
        return connections;
    }

    /** Its table, which holds the JDBC token store's tokens too. */
    public String table() {
        return table;
    }

    @Override
    public RequestIdStore onWaitingThread() {
        return onWaitingThread;
    }

    /** Runs a statement of the store's own: on its threads, or, for a waiting caller, maybe on the caller's. */
    private <T> CompletableFuture<T> run(String kind, JdbcConnections.Statement<T> statement) {
        return here ? connections.here(kind, statement) : connections.async(kind, statement);
    }

    @Override
    public CompletableFuture<ClaimOutcome> claim(String recordKey, String fingerprint, Duration lease) {
        return run("claim", connection -> {
            String owner = Owners.next();
            long sentAt = System.nanoTime();
            Claim claim = new Claim(recordKey, owner, fingerprint, sentAt);
            JdbcRecordStatements sql = statements.on(connection);
            ClaimOutcome found = insertThenRead(connection, sql, claim, lease);
            if (found != null) {
                return found;
            }
            // The record's time is up: take it over, unless another claimer did first.
            return connections.update(connection, sql.takeOver, owner, fingerprint, lease.toMillis(), recordKey) == 1
                    ? new ClaimOutcome.Acquired(claim)
                    : new ClaimOutcome.InProgress();
        });
    }

    /**
     * The claim, or, when its key is taken, what holds it; {@code null} when its time is up. Two statements for a
     * duplicate: one that reads as it inserts (a CTE on PostgreSQL) made the first call, the common one, a fifth
     * slower ({@code JdbcClaimBenchmarks}).
     */
    private @Nullable ClaimOutcome insertThenRead(
            Connection connection, JdbcRecordStatements sql, Claim claim, Duration lease) throws SQLException {
        if (connections.insertIfAbsent(
                        connection, sql.claim, claim.recordKey(), claim.owner(), claim.fingerprint(), lease.toMillis())
                == 1) {
            return new ClaimOutcome.Acquired(claim);
        }
        try (PreparedStatement statement = connections.prepare(connection, sql.read, claim.recordKey());
                ResultSet row = statement.executeQuery()) {
            return row.next()
                    ? outcomeOf(row, claim.fingerprint())
                    : new ClaimOutcome.InProgress(); // deleted since the insert found it: ask again shortly
        }
    }

    /** What the live record at {@code row} says; {@code null} when its time is up. */
    private static @Nullable ClaimOutcome outcomeOf(ResultSet row, String fingerprint) throws SQLException {
        String state = row.getString(1);
        if (row.getBoolean(4)) {
            return null;
        }
        byte[] result = row.getBytes(3);
        RequestRecord record = new RequestRecord(
                !"P".equals(state), "C".equals(state), row.getString(2), result == null ? new byte[0] : result);
        if (record.mismatches(fingerprint)) {
            return new ClaimOutcome.Mismatch();
        }
        if ("D".equals(state)) {
            // Its work committed: the answer is on its way, or, once the owner's lease is up, lost.
            return row.getBoolean(5) ? new ClaimOutcome.NotKept() : new ClaimOutcome.InProgress();
        }
        if (!record.completed()) {
            return new ClaimOutcome.InProgress();
        }
        return record.kept() ? new ClaimOutcome.Replay(record.result(), record.result()) : new ClaimOutcome.NotKept();
    }

    @Override
    public CompletableFuture<Boolean> complete(Claim claim, byte @Nullable [] result, Duration ttl) {
        return run("complete", connection -> complete(connection, claim, result, ttl));
    }

    @Override
    public boolean joinsCurrentTransaction() {
        return connections.inCurrentTransaction();
    }

    @Override
    public boolean currentTransactionKeepsSnapshot() {
        return connections.inSnapshotTransaction();
    }

    @Override
    public boolean joinsTransactions() {
        return true;
    }

    @Override
    public CompletableFuture<Boolean> markCommittedInTransaction(Claim claim, Duration ttl) {
        return inTransaction(connection -> connections.update(
                        connection,
                        statements.on(connection).markCommitted,
                        ttl.toMillis(),
                        claim.recordKey(),
                        claim.owner())
                == 1);
    }

    @Override
    public CompletableFuture<Boolean> completeInTransaction(Claim claim, byte @Nullable [] result, Duration ttl) {
        return inTransaction(connection -> complete(connection, claim, result, ttl));
    }

    /** Runs {@code statement} now, on this thread, in its transaction; the future is done when this returns. */
    private CompletableFuture<Boolean> inTransaction(JdbcConnections.Statement<Boolean> statement) {
        try {
            return CompletableFuture.completedFuture(connections.inTransaction("complete", statement));
        } catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /** Completes the claim's record, or writes it anew when it is gone (purged, or deleted by hand). */
    private boolean complete(Connection connection, Claim claim, byte @Nullable [] result, Duration ttl)
            throws SQLException {
        JdbcRecordStatements sql = statements.on(connection);
        String state = result == null ? "N" : "C";
        long ttlMillis = ttl.toMillis();
        return connections.update(
                                connection,
                                sql.complete,
                                state,
                                claim.fingerprint(),
                                result,
                                ttlMillis,
                                claim.recordKey(),
                                claim.owner())
                        == 1
                || connections.insertIfAbsent(
                                connection,
                                sql.completeMissing,
                                claim.recordKey(),
                                state,
                                claim.fingerprint(),
                                result,
                                ttlMillis)
                        == 1;
    }

    @Override
    public CompletableFuture<Boolean> renew(Claim claim, Duration lease) {
        return connections.async(
                "renew",
                connection -> connections.update(
                                connection,
                                statements.on(connection).renew,
                                lease.toMillis(),
                                lease.toMillis(),
                                claim.recordKey(),
                                claim.owner())
                        == 1);
    }

    @Override
    public CompletableFuture<Boolean> release(Claim claim) {
        // A claim whose work committed is never freed for a rerun: it completes without an answer instead.
        return run("release", connection -> {
            JdbcRecordStatements sql = statements.on(connection);
            return connections.update(connection, sql.release, claim.recordKey(), claim.owner()) == 1
                    || connections.update(connection, sql.releaseCommitted, claim.recordKey(), claim.owner()) == 1;
        });
    }

    @Override
    public CompletableFuture<Boolean> discard(String recordKey, byte[] value) {
        return connections.async(
                "release",
                connection -> connections.update(connection, statements.on(connection).discard, recordKey, value) == 1);
    }

    @Override
    public CompletableFuture<Boolean> delete(String recordKey) {
        return connections.async(
                "delete",
                connection -> connections.update(connection, statements.on(connection).delete, recordKey) == 1);
    }

    /**
     * Fails, naming the shipped schemas, unless the table is there with every column this store uses, on a database it
     * runs on.
     *
     * @throws IllegalStateException when it is not
     */
    public void checkTable() {
        try {
            connections.own("read", connection -> {
                try (PreparedStatement statement = connections.prepare(connection, statements.on(connection).probe)) {
                    statement.executeQuery().close();
                    return null;
                }
            });
        } catch (RuntimeException ex) {
            Throwable why = ex.getCause() != null ? ex.getCause() : ex;
            throw new IllegalStateException(
                    "The JDBC record store cannot read its table (" + why.getMessage() + "): it is missing, or"
                            + " misses a migration of this release. Run " + JdbcStore.POSTGRESQL_SCHEMA + " or "
                            + JdbcStore.MARIADB_SCHEMA
                            + " (spring.sql.init.mode=always and spring.sql.init.schema-locations), or add the Flyway"
                            + " location " + JdbcMigrations.FLYWAY_VENDOR_LOCATION + " to spring.flyway.locations,"
                            + " or include " + JdbcMigrations.LIQUIBASE_CHANGELOG + " in your Liquibase changelog",
                    ex);
        }
    }

    /** Deletes every record whose time is up, on this thread, in batches of {@code batch}; the number deleted. */
    public int purgeExpired(int batch) {
        return connections.own("purge", connection -> purgeExpired(connection, batch));
    }

    private int purgeExpired(Connection connection, int batch) throws SQLException {
        JdbcRecordStatements sql = statements.on(connection);
        Object cutoff;
        try (PreparedStatement statement = connections.prepare(connection, sql.now);
                ResultSet row = statement.executeQuery()) {
            row.next();
            cutoff = row.getObject(1, connections.dialect(connection).timeType());
        }
        int total = 0;
        int deleted;
        do {
            deleted = connections.update(connection, sql.purge, cutoff, batch, cutoff);
            total += deleted;
        } while (deleted == batch);
        return total;
    }

    /** Purges every {@code interval} on the store's threads, one purge at a time, until the store is closed. */
    public void purgeEvery(Scheduling scheduling, Duration interval, int batch) {
        AtomicBoolean running = new AtomicBoolean();
        purging = scheduling.repeat(
                () -> {
                    if (running.compareAndSet(false, true)) {
                        connections
                                .async("purge", connection -> purgeExpired(connection, batch))
                                .whenComplete((deleted, failure) -> {
                                    running.set(false);
                                    if (failure != null) {
                                        log.warn(
                                                "Could not purge expired idempotency records: {}",
                                                failure.getMessage());
                                    } else {
                                        log.debug("Purged {} expired idempotency records", deleted);
                                    }
                                });
                    }
                },
                interval);
    }

    /** Stops the store's threads (not through its view for waiting callers, which shares them). */
    @Override
    public void close() {
        if (here) {
            return;
        }
        ScheduledFuture<?> purge = purging;
        if (purge != null) {
            purge.cancel(false);
        }
        connections.close();
    }
}

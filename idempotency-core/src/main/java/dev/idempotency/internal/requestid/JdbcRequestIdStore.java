package dev.idempotency.internal.requestid;

import dev.idempotency.internal.jdbc.JdbcConnections;
import dev.idempotency.internal.lease.Owners;
import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.spi.StoreListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@code REQUEST_ID} records in a table of the application's database (PostgreSQL; the schema ships as
 * {@code dev/idempotency/jdbc/schema-postgresql.sql}). One row a key: {@code P} in progress with its owner and lease
 * end, {@code C} completed with the result, {@code N} completed without it, each with the time it may be purged. A first
 * call costs one statement ({@code INSERT ... ON CONFLICT DO NOTHING}); a duplicate two (that, and a read that takes no
 * lock). The claim commits at once, on a connection of its own; a completion made inside the work's transaction is
 * written on that transaction's connection, so the record and the business rows commit, or roll back, together.
 */
public final class JdbcRequestIdStore implements RequestIdStore, AutoCloseable {

    private static final String LATER = "clock_timestamp() + ? * INTERVAL '1 millisecond'";

    private final JdbcConnections connections;
    private final String insertClaim;
    private final String read;
    private final String takeOver;
    private final String complete;
    private final String renew;
    private final String release;
    private final String discard;
    private final String purge;

    /** A store on the settings' database, with connections of its own; close them with {@link #close}. */
    public static JdbcRequestIdStore open(JdbcStore settings, StoreListener listener) {
        return new JdbcRequestIdStore(
                new JdbcConnections(settings.dataSource(), settings.threads(), settings.queryTimeout(), listener),
                settings.table());
    }

    /** @param table the records' table, optionally with its schema, checked by {@code JdbcStore} */
    JdbcRequestIdStore(JdbcConnections connections, String table) {
        this.connections = connections;
        this.insertClaim = "INSERT INTO " + table + " (record_key, state, owner, fingerprint, expires_at)"
                + " VALUES (?, 'P', ?, ?, " + LATER + ") ON CONFLICT (record_key) DO NOTHING";
        this.read = "SELECT state, fingerprint, result, expires_at <= clock_timestamp() FROM " + table
                + " WHERE record_key = ?";
        this.takeOver = "UPDATE " + table + " SET state = 'P', owner = ?, fingerprint = ?, result = NULL, expires_at = "
                + LATER + " WHERE record_key = ? AND expires_at <= clock_timestamp()";
        this.complete = "INSERT INTO " + table + " AS r (record_key, state, fingerprint, result, expires_at)"
                + " VALUES (?, ?, ?, ?, " + LATER + ") ON CONFLICT (record_key) DO UPDATE SET state = EXCLUDED.state,"
                + " owner = NULL, fingerprint = EXCLUDED.fingerprint, result = EXCLUDED.result,"
                + " expires_at = EXCLUDED.expires_at"
                + " WHERE (r.state = 'P' AND r.owner = ?) OR r.expires_at <= clock_timestamp()";
        this.renew = "UPDATE " + table + " SET expires_at = " + LATER
                + " WHERE record_key = ? AND state = 'P' AND owner = ?";
        this.release = "DELETE FROM " + table + " WHERE record_key = ? AND state = 'P' AND owner = ?";
        this.discard = "DELETE FROM " + table + " WHERE record_key = ? AND state = 'C' AND result = ?";
        this.purge = "DELETE FROM " + table + " WHERE record_key IN (SELECT record_key FROM " + table
                + " WHERE expires_at <= clock_timestamp() LIMIT ?)";
    }

    @Override
    public CompletableFuture<ClaimOutcome> claim(String recordKey, String fingerprint, Duration lease) {
        return connections.async("claim", connection -> {
            String owner = Owners.next();
            long sentAt = System.nanoTime();
            Claim claim = new Claim(recordKey, owner, fingerprint, sentAt);
            if (update(connection, insertClaim, recordKey, owner, fingerprint, lease.toMillis()) == 1) {
                return new ClaimOutcome.Acquired(claim);
            }
            ClaimOutcome found = outcomeOf(connection, recordKey, fingerprint);
            if (found != null) {
                return found;
            }
            // The record's time is up: take it over, unless another claimer did first.
            return update(connection, takeOver, owner, fingerprint, lease.toMillis(), recordKey) == 1
                    ? new ClaimOutcome.Acquired(claim)
                    : new ClaimOutcome.InProgress();
        });
    }

    /** What a live record says; {@code null} when there is none, or its time is up. */
    private @Nullable ClaimOutcome outcomeOf(Connection connection, String recordKey, String fingerprint)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, read, recordKey);
                ResultSet row = statement.executeQuery()) {
            if (!row.next()) {
                return new ClaimOutcome.InProgress(); // deleted since the insert found it: ask again shortly
            }
            if (row.getBoolean(4)) {
                return null;
            }
            String state = row.getString(1);
            byte[] result = row.getBytes(3);
            RequestRecord record = new RequestRecord(
                    !"P".equals(state), "C".equals(state), row.getString(2), result == null ? new byte[0] : result);
            if (record.mismatches(fingerprint)) {
                return new ClaimOutcome.Mismatch();
            }
            if (!record.completed()) {
                return new ClaimOutcome.InProgress();
            }
            return record.kept()
                    ? new ClaimOutcome.Replay(record.result(), record.result())
                    : new ClaimOutcome.NotKept();
        }
    }

    @Override
    public CompletableFuture<Boolean> complete(Claim claim, byte @Nullable [] result, Duration ttl) {
        return connections.async("complete", connection -> complete(connection, claim, result, ttl));
    }

    @Override
    public boolean joinsCurrentTransaction() {
        return TransactionSynchronizationManager.isActualTransactionActive()
                && TransactionSynchronizationManager.hasResource(connections.dataSource());
    }

    @Override
    public CompletableFuture<Boolean> completeInTransaction(Claim claim, byte @Nullable [] result, Duration ttl) {
        try {
            return CompletableFuture.completedFuture(
                    connections.inTransaction("complete", connection -> complete(connection, claim, result, ttl)));
        } catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    private boolean complete(Connection connection, Claim claim, byte @Nullable [] result, Duration ttl)
            throws SQLException {
        String state = result == null ? "N" : "C";
        return update(
                        connection,
                        complete,
                        claim.recordKey(),
                        state,
                        claim.fingerprint(),
                        result,
                        ttl.toMillis(),
                        claim.owner())
                == 1;
    }

    @Override
    public CompletableFuture<Boolean> renew(Claim claim, Duration lease) {
        return connections.async(
                "renew",
                connection -> update(connection, renew, lease.toMillis(), claim.recordKey(), claim.owner()) == 1);
    }

    @Override
    public CompletableFuture<Boolean> release(Claim claim) {
        return connections.async(
                "release", connection -> update(connection, release, claim.recordKey(), claim.owner()) == 1);
    }

    @Override
    public CompletableFuture<Boolean> discard(String recordKey, byte[] value) {
        return connections.async("release", connection -> update(connection, discard, recordKey, value) == 1);
    }

    /**
     * Deletes up to {@code batch} records whose time is up, on this thread; the number deleted. Run it until it deletes
     * fewer than {@code batch}.
     */
    public int purgeExpired(int batch) {
        return connections.own("purge", connection -> update(connection, purge, batch));
    }

    /** Stops the store's threads. */
    @Override
    public void close() {
        connections.close();
    }

    private int update(Connection connection, String sql, @Nullable Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        }
    }

    private PreparedStatement prepare(Connection connection, String sql, @Nullable Object... parameters)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            statement.setQueryTimeout(connections.queryTimeoutSeconds());
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement;
        } catch (SQLException ex) {
            statement.close();
            throw ex;
        }
    }
}

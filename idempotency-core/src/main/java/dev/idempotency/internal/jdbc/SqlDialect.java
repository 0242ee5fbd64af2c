package dev.idempotency.internal.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.PessimisticLockingFailureException;

/**
 * What differs between the databases the JDBC stores run on, in one place: the clock, an insert that leaves a taken key
 * alone, the purge of a batch, and which errors mean a lost race. The rest of the stores' SQL is common to both. Every
 * time to live and lease is decided by the database's clock, never by the clocks of the application's instances.
 */
public enum SqlDialect {

    /** PostgreSQL (tested on 14). */
    POSTGRESQL(
            // read anew by each call, unlike now(), which is the start of the transaction
            "clock_timestamp()", "clock_timestamp() + ? * INTERVAL '1 millisecond'", OffsetDateTime.class) {

        @Override
        public String insertIfAbsent(String insert) {
            return insert + " ON CONFLICT (record_key) DO NOTHING";
        }

        @Override
        public String purge(String table) {
            // The row deleted is checked again: one made live since the selection (it waited on its lock) stays.
            return "DELETE FROM " + table + " WHERE record_key IN (SELECT record_key FROM " + table
                    + " WHERE expires_at <= ? LIMIT ? FOR UPDATE SKIP LOCKED) AND expires_at <= ?";
        }

        @Override
        boolean isDeadlock(SQLException ex) {
            return "40P01".equals(ex.getSQLState()) || "40001".equals(ex.getSQLState());
        }

        @Override
        @Nullable
        ConcurrencyFailureException lostRace(SQLException ex) {
            return switch (String.valueOf(ex.getSQLState())) {
                case "40001" -> new PessimisticLockingFailureException(SERIALIZATION + ex.getMessage(), ex);
                case "40P01" -> new CannotAcquireLockException(DEADLOCK + ex.getMessage(), ex);
                default -> null;
            };
        }
    },

    /**
     * MariaDB (tested on 10.11; 10.6 is the first with {@code SKIP LOCKED}) and MySQL 8 (not tested). Times are UTC in
     * {@code DATETIME(6)} columns: no time zone of a session or server, nor its daylight saving, moves them, and they
     * do not end in 2038 like {@code TIMESTAMP}. {@code UTC_TIMESTAMP(6)} is the start of the statement (every
     * statement of the stores is short, and a statement that waited on a lock sees an earlier time: it takes over or
     * overwrites less, never more).
     */
    MARIADB("UTC_TIMESTAMP(6)", "UTC_TIMESTAMP(6) + INTERVAL (? * 1000) MICROSECOND", LocalDateTime.class) {

        @Override
        public String insertIfAbsent(String insert) {
            // Not INSERT IGNORE: it would also turn a key too long for its column into a truncated, shared one.
            return insert;
        }

        @Override
        public String purge(String table) {
            // MariaDB takes no LIMIT in an IN subquery: the batch is a derived table, joined first on the primary key
            // (never a locking scan of the outer table's expires_at range, which would wait on the rows it skipped),
            // and the row deleted is checked again, as on PostgreSQL.
            return "DELETE r FROM (SELECT record_key FROM " + table
                    + " WHERE expires_at <= ? LIMIT ? FOR UPDATE SKIP LOCKED) batch STRAIGHT_JOIN " + table
                    + " r FORCE INDEX (PRIMARY) ON r.record_key = batch.record_key WHERE r.expires_at <= ?";
        }

        @Override
        boolean isDuplicateKey(SQLException ex) {
            return ex.getErrorCode() == 1062;
        }

        @Override
        boolean isDeadlock(SQLException ex) {
            return ex.getErrorCode() == 1213;
        }

        @Override
        @Nullable
        ConcurrencyFailureException lostRace(SQLException ex) {
            return switch (ex.getErrorCode()) {
                case 1213 -> new CannotAcquireLockException(DEADLOCK + ex.getMessage(), ex);
                case 1205 ->
                    new CannotAcquireLockException(
                            "The transaction waited too long for a lock: " + ex.getMessage(), ex);
                // innodb_snapshot_isolation (MariaDB 11.6 and later): the row changed after the snapshot
                case 1020 -> new PessimisticLockingFailureException(SERIALIZATION + ex.getMessage(), ex);
                default -> null;
            };
        }
    };

    private static final String SERIALIZATION = "The transaction could not be serialized with a concurrent one: ";
    private static final String DEADLOCK = "The transaction lost a deadlock: ";

    private final String now;
    private final String later;
    private final Class<?> timeType;

    SqlDialect(String now, String later, Class<?> timeType) {
        this.now = now;
        this.later = later;
        this.timeType = timeType;
    }

    /** The database's dialect, from its product name; fails, naming the supported databases, for any other. */
    public static SqlDialect of(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        String name = product.toLowerCase(Locale.ROOT);
        if (name.contains("postgresql")) {
            return POSTGRESQL;
        }
        if (name.contains("mariadb") || name.contains("mysql")) {
            return MARIADB;
        }
        throw new IllegalStateException(
                "The JDBC record store runs on PostgreSQL, MariaDB or MySQL, not on " + product);
    }

    /** The database's time now. */
    public String now() {
        return now;
    }

    /** {@link #now()} plus a parameter's milliseconds. */
    public String later() {
        return later;
    }

    /** The Java type to read {@link #now()} as, to give it back as a parameter unchanged. */
    public Class<?> timeType() {
        return timeType;
    }

    /**
     * {@code insert}, an {@code INSERT} of one row, made to leave a row that holds its key alone and change no rows;
     * where the database has no such clause, the insert fails with a duplicate key ({@link #isDuplicateKey}), which
     * leaves the transaction usable there.
     */
    public abstract String insertIfAbsent(String insert);

    /**
     * Deletes up to a batch of rows of {@code table} whose time was up at a cutoff: cutoff, batch size, cutoff. A row
     * locked by another transaction is skipped, and the expiry is checked again on the row deleted, so a row made live
     * meanwhile is never deleted. The cutoff is a parameter, not the clock, so that the index on {@code expires_at}
     * serves the selection.
     */
    public abstract String purge(String table);

    /** Whether {@code ex} is the failure of {@link #insertIfAbsent}'s insert on a key that is taken. */
    boolean isDuplicateKey(SQLException ex) {
        return false;
    }

    /**
     * Whether the database rolled back {@code ex}'s statement to break a deadlock (or, on PostgreSQL, a serialization
     * conflict): a statement of the store's own, on a connection of its own, may then simply run again.
     */
    abstract boolean isDeadlock(SQLException ex);

    /**
     * A deadlock, lock wait or serialization failure: the caller's to retry, as Spring's retry support knows it
     * ({@link ConcurrencyFailureException}); {@code null} for anything else.
     */
    abstract @Nullable ConcurrencyFailureException lostRace(SQLException ex);
}

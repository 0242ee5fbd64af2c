package dev.idempotency.internal.jdbc;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.spi.StoreListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * How the JDBC stores reach the database. A record's own writes (claim, renew, release, purge) run on a connection of
 * their own, committed at once, on a small pool of threads: never on the caller's thread, which may be an event loop,
 * and never in the caller's transaction, so a claim is visible to duplicates before the work runs and a release after
 * a rollback really happens. A completion that joins the caller's transaction runs on the caller's thread, on the
 * connection Spring bound to that transaction.
 */
public final class JdbcConnections implements AutoCloseable {

    /** Suggested {@code Retry-After} when the database fails. */
    public static final Duration STORE_RETRY_AFTER = Duration.ofSeconds(1);

    /** How often a statement of the store's own runs when it keeps losing deadlocks. */
    private static final int OWN_ATTEMPTS = 3;

    private final DataSource dataSource;
    private final DataSource ownConnections;
    private final StatementLine line;
    private final StoreListener listener;
    private final int queryTimeoutSeconds;
    private volatile @Nullable SqlDialect dialect;

    /** Statements on {@code dataSource}'s own connections too; see the other constructor. */
    public JdbcConnections(DataSource dataSource, int threads, Duration queryTimeout, StoreListener listener) {
        this(dataSource, dataSource, threads, queryTimeout, listener);
    }

    /**
     * @param dataSource the application's database, whose transactions the store joins
     * @param ownConnections where the store's own statements get connections: {@code dataSource}, or a pool of the
     *     store's own on the same database (closed with this)
     * @param threads how many statements run at once; more wait in a bounded line, each at most {@code queryTimeout}
     *     (keep it at most the size of the pool they use)
     * @param queryTimeout the longest a statement may take, or wait for a thread, before its call fails as store
     *     unavailable
     */
    public JdbcConnections(
            DataSource dataSource,
            DataSource ownConnections,
            int threads,
            Duration queryTimeout,
            StoreListener listener) {
        this.dataSource = dataSource;
        this.ownConnections = ownConnections;
        this.listener = listener;
        this.queryTimeoutSeconds = (int) Math.max(1, queryTimeout.toSeconds());
        this.line = new StatementLine(threads, queryTimeout.toNanos());
    }

    /** The database. */
    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * The dialect of the database, read from the first connection asked (one store, one database).
     *
     * @throws IllegalStateException when the database is none the store runs on
     */
    public SqlDialect dialect(Connection connection) throws SQLException {
        SqlDialect current = dialect;
        if (current == null) {
            current = SqlDialect.of(connection);
            dialect = current;
        }
        return current;
    }

    /** A unit of work on one connection. */
    @FunctionalInterface
    public interface Statement<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs {@code statement} on a connection of its own, committed when it returns, on the store's threads. */
    public <T> CompletableFuture<T> async(String kind, Statement<T> statement) {
        return refusedAsUnavailable(kind, System.nanoTime(), line.submit(kind, () -> own(kind, statement)));
    }

    /**
     * {@link #async}, for a caller that waits for the statement on its own thread, which may block: when a store thread
     * would be free and none is waited for, the statement runs on the caller's thread, and the future is done when
     * this returns. Never on an event loop or a timer's thread, nor on one in a transaction.
     */
    public <T> CompletableFuture<T> here(String kind, Statement<T> statement) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            // A connection asked for on a thread in a transaction may be that transaction's (a DataSource wrapped in a
            // TransactionAwareDataSourceProxy): the store's own commit would then be the caller's.
            return async(kind, statement);
        }
        return refusedAsUnavailable(kind, System.nanoTime(), line.runHere(kind, () -> own(kind, statement)));
    }

    private <T> CompletableFuture<T> refusedAsUnavailable(String kind, long queued, CompletableFuture<T> ran) {
        if (ran.isDone() && !ran.isCompletedExceptionally()) {
            return ran;
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        ran.whenComplete((value, failure) -> {
            if (failure instanceof RejectedExecutionException refused) {
                listener.onCall(StoreListener.JDBC, kind, System.nanoTime() - queued, true);
                result.completeExceptionally(unavailable(refused));
            } else if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(value);
            }
        });
        return result;
    }

    /**
     * Runs {@code statement} on this thread, on a connection of its own, committed when it returns. A statement the
     * database rolled back to break a deadlock runs again, a few times: nothing of it was committed (each of the
     * stores' units returns as soon as one of its writes took effect), and its caller has no transaction to retry.
     */
    public <T> T own(String kind, Statement<T> statement) {
        long start = System.nanoTime();
        boolean failed = true;
        try (Connection connection = ownConnections.getConnection()) {
            for (int attempt = 1; ; attempt++) {
                try {
                    T result = once(connection, statement);
                    failed = false;
                    return result;
                } catch (SQLException ex) {
                    if (attempt == OWN_ATTEMPTS || !dialect(connection).isDeadlock(ex)) {
                        throw ex;
                    }
                }
            }
        } catch (SQLException ex) {
            throw unavailable(ex);
        } finally {
            listener.onCall(StoreListener.JDBC, kind, System.nanoTime() - start, failed);
        }
    }

    private static <T> T once(Connection connection, Statement<T> statement) throws SQLException {
        if (connection.getAutoCommit()) {
            return statement.run(connection);
        }
        try {
            T result = statement.run(connection);
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException ex) {
            connection.rollback();
            throw ex;
        }
    }

    /**
     * Whether a transaction on the store's database is bound to this thread: an actual transaction whose connection
     * does not commit each statement. A connection that {@code JdbcTemplate} bound only for synchronization (under a
     * Kafka transaction, say) runs in autocommit and is no transaction to join.
     */
    public boolean inCurrentTransaction() {
        try {
            Connection connection = transactionConnection();
            return connection != null && !connection.getAutoCommit();
        } catch (SQLException ex) {
            return false; // a connection that cannot say is not one to write the record on
        }
    }

    /**
     * Whether the transaction bound to this thread reads from one snapshot (REPEATABLE READ or SERIALIZABLE): it then
     * fails to write a row that another transaction changed after its snapshot, such as a lease renewal.
     */
    public boolean inSnapshotTransaction() {
        try {
            Connection connection = transactionConnection();
            return connection != null
                    && !connection.getAutoCommit()
                    && connection.getTransactionIsolation() >= Connection.TRANSACTION_REPEATABLE_READ;
        } catch (SQLException ex) {
            return false;
        }
    }

    private @Nullable Connection transactionConnection() {
        return TransactionSynchronizationManager.isActualTransactionActive()
                        && TransactionSynchronizationManager.getResource(dataSource) instanceof ConnectionHolder holder
                ? holder.getConnection()
                : null;
    }

    /** Runs {@code statement} on this thread, in the transaction bound to it (committed or rolled back with it). */
    public <T> T inTransaction(String kind, Statement<T> statement) {
        long start = System.nanoTime();
        boolean failed = true;
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            T result = statement.run(connection);
            failed = false;
            return result;
        } catch (SQLException ex) {
            throw failureInTransaction(connection, ex);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
            listener.onCall(StoreListener.JDBC, kind, System.nanoTime() - start, failed);
        }
    }

    /** Runs an update with these parameters and the query timeout; the number of rows it changed. */
    public int update(Connection connection, String sql, @Nullable Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        }
    }

    /** Prepares {@code sql} with these parameters and the query timeout; the caller closes it. */
    public PreparedStatement prepare(Connection connection, String sql, @Nullable Object... parameters)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            statement.setQueryTimeout(queryTimeoutSeconds);
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement;
        } catch (SQLException ex) {
            statement.close();
            throw ex;
        }
    }

    /**
     * Runs an insert made by {@link SqlDialect#insertIfAbsent}; the number of rows it inserted, 0 when the key is
     * taken.
     */
    public int insertIfAbsent(Connection connection, String sql, @Nullable Object... parameters) throws SQLException {
        try {
            return update(connection, sql, parameters);
        } catch (SQLException ex) {
            if (dialect(connection).isDuplicateKey(ex)) {
                return 0;
            }
            throw ex;
        }
    }

    /**
     * A serialization failure, deadlock or lock wait of the caller's transaction is the caller's to retry, as Spring's
     * retry support knows it ({@link org.springframework.dao.ConcurrencyFailureException}); anything else is the
     * store's.
     */
    private RuntimeException failureInTransaction(Connection connection, SQLException cause) {
        try {
            RuntimeException lostRace = dialect(connection).lostRace(cause);
            return lostRace != null ? lostRace : unavailable(cause);
        } catch (SQLException | RuntimeException unknown) {
            return unavailable(cause);
        }
    }

    private static IdempotencyStoreUnavailableException unavailable(Exception cause) {
        return new IdempotencyStoreUnavailableException(
                "The database is unavailable: " + cause.getMessage(), STORE_RETRY_AFTER, cause);
    }

    @Override
    public void close() {
        line.close();
        if (ownConnections != dataSource && ownConnections instanceof AutoCloseable pool) {
            try {
                pool.close();
            } catch (Exception ex) {
                // closing: the pool's connections end with the process at the latest
            }
        }
    }
}

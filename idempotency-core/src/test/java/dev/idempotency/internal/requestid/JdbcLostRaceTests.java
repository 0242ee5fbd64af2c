package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * MariaDB: the caller's transaction loses a race on the record's row, which another transaction of the test holds
 * locked, when the store writes the completion or the committed mark in it: a lock wait that times out (error 1205)
 * or a deadlock whose victim it is (1213, SQLSTATE 40001) reaches the caller as Spring's
 * {@link CannotAcquireLockException}, which retry support recognises, not as the store being unavailable; the claim is
 * released, so the retry runs. PostgreSQL's serialization failure is {@link JdbcSerializationFailureTests}'.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcLostRaceTests {

    private static final ResultCodec<String> TEXT = ResultCodec.utf8();
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Rows the other transaction writes first: InnoDB rolls back the transaction that wrote less. */
    private static final int BALLAST_ROWS = 200;

    /** Runs on the caller's thread when a statement in its transaction failed, before the store releases the claim. */
    private volatile Runnable afterAFailedStatement = () -> {};

    private final JdbcFixture records = new JdbcFixture(
            Database.MARIADB,
            JdbcStore::of,
            new StoreListener() {
                @Override
                public void onCall(String store, String kind, long nanos, boolean failed) {
                    if (failed && "complete".equals(kind)) {
                        afterAFailedStatement.run();
                    }
                }
            },
            Duration.ofSeconds(30),
            "CREATE TABLE IF NOT EXISTS jdbc_lost_race_orders (id varchar(36) PRIMARY KEY)",
            "CREATE TABLE IF NOT EXISTS jdbc_lost_race_ballast (id int)");
    private final JdbcTemplate jdbc = records.jdbc;

    @AfterAll
    void close() {
        records.close();
    }

    @Test
    void aLockWaitOfTheCompletionInTheCallersTransactionReachesItAsCannotAcquireLock() throws Exception {
        String key = UUID.randomUUID().toString();
        try (Holder holder = new Holder()) {
            assertThatThrownBy(() -> transaction().execute(status -> {
                        waitForLocksOneSecond();
                        return records.requestIds.execute(
                                records.call(key),
                                () -> {
                                    order(key);
                                    holder.lockRecordUntilTheCallerGaveUp(records.recordKey(key));
                                    return "order";
                                },
                                TEXT);
                    }))
                    .isInstanceOf(CannotAcquireLockException.class);
        }
        assertReleasedWithoutTheOrder(key);
    }

    @Test
    void aLockWaitOfTheCommittedMarkReachesTheCallerAsCannotAcquireLock() throws Exception {
        String key = UUID.randomUUID().toString();
        try (Holder holder = new Holder()) {
            assertThatThrownBy(() -> records.requestIds.execute(
                            records.call(key),
                            () -> transaction().execute(status -> {
                                waitForLocksOneSecond();
                                order(key);
                                holder.lockRecordUntilTheCallerGaveUp(records.recordKey(key));
                                return "order";
                            }),
                            TEXT))
                    .isInstanceOf(CannotAcquireLockException.class);
        }
        assertReleasedWithoutTheOrder(key);
    }

    /**
     * The caller's transaction wrote its order; the other transaction holds the record's row, wrote more, and waits
     * for the order's row. The completion then waits for the record's row: a deadlock, whose victim is the caller's.
     */
    @Test
    void aDeadlockOfTheCallersTransactionReachesItAsCannotAcquireLock() throws Exception {
        String key = UUID.randomUUID().toString();
        try (Holder holder = new Holder()) {
            assertThatThrownBy(() -> transaction()
                            .execute(status -> records.requestIds.execute(
                                    records.call(key),
                                    () -> {
                                        order(key);
                                        holder.lockRecord(records.recordKey(key));
                                        holder.waitForTheOrder(key);
                                        return "order";
                                    },
                                    TEXT)))
                    .isInstanceOf(CannotAcquireLockException.class)
                    .hasMessageContaining("deadlock");
        }
        assertReleasedWithoutTheOrder(key);
    }

    private TransactionTemplate transaction() {
        return JdbcFixture.transactions(records.database);
    }

    /** The caller's transaction gives up on a lock after 1 s rather than the server's 50. */
    private void waitForLocksOneSecond() {
        jdbc.execute("SET SESSION innodb_lock_wait_timeout = 1");
    }

    private void order(String key) {
        jdbc.update("INSERT INTO jdbc_lost_race_orders (id) VALUES (?)", key);
    }

    private void assertReleasedWithoutTheOrder(String key) {
        assertThat(jdbc.queryForObject("SELECT count(*) FROM jdbc_lost_race_orders WHERE id = ?", Integer.class, key))
                .isZero();
        Await.until(
                DEADLINE,
                "the claim released: the retry runs",
                () -> records.state(key).equals("absent"));
    }

    /** The test's other transaction, on a connection of its own; rolled back when closed. */
    private final class Holder implements AutoCloseable {

        private final Connection connection;
        private final long id;
        private CompletableFuture<Void> waiting = CompletableFuture.completedFuture(null);

        Holder() throws SQLException {
            connection = records.kind.dataSource().getConnection();
            connection.setAutoCommit(false);
            try (PreparedStatement statement = connection.prepareStatement("SELECT CONNECTION_ID()");
                    var result = statement.executeQuery()) {
                result.next();
                id = result.getLong(1);
            }
        }

        /** Locks the record's row (committed by the claim) until this transaction ends. */
        void lockRecord(String recordKey) {
            run("SELECT state FROM idempotency_request WHERE record_key = ? FOR UPDATE", recordKey);
        }

        /**
         * Locks the record's row, and ends this transaction once the store's statement in the caller's transaction
         * gave up on it: the store then releases the claim on the row at once (it does before the caller hears).
         */
        void lockRecordUntilTheCallerGaveUp(String recordKey) {
            lockRecord(recordKey);
            afterAFailedStatement = this::rollback;
        }

        /**
         * Writes {@link #BALLAST_ROWS} rows, then asks for the order's row, on another thread, and returns once that
         * waits for the caller's transaction.
         */
        void waitForTheOrder(String key) {
            for (int i = 0; i < BALLAST_ROWS; i++) {
                run("INSERT INTO jdbc_lost_race_ballast (id) VALUES (?)", i);
            }
            waiting = CompletableFuture.runAsync(
                    () -> {
                        // returns once the deadlock's victim, the caller's transaction, rolled back
                        run("SELECT id FROM jdbc_lost_race_orders WHERE id = ? FOR UPDATE", key);
                        rollback();
                    },
                    task -> new Thread(task, "jdbc-lost-race-holder").start());
            Await.until(DEADLINE, "the other transaction to wait for the order's row", () -> waitsForALock(id));
        }

        /** Whether the transaction of connection {@code connectionId} waits for a lock. */
        private boolean waitsForALock(long connectionId) {
            return new JdbcTemplate(records.kind.dataSource())
                            .queryForObject(
                                    "SELECT count(*) FROM information_schema.innodb_trx"
                                            + " WHERE trx_mysql_thread_id = ? AND trx_state = 'LOCK WAIT'",
                                    Integer.class,
                                    connectionId)
                    == 1;
        }

        private void rollback() {
            try {
                connection.rollback();
            } catch (SQLException ex) {
                throw new IllegalStateException(ex);
            }
        }

        private void run(String sql, Object parameter) {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setObject(1, parameter);
                statement.execute();
            } catch (SQLException ex) {
                throw new IllegalStateException(ex);
            }
        }

        @Override
        public void close() throws Exception {
            afterAFailedStatement = () -> {};
            try {
                waiting.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            } finally {
                connection.close(); // rolls back what is left
            }
        }
    }
}

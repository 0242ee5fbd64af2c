package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Database;
import dev.idempotency.testsupport.OnEveryDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The purge never deletes a live row: an expired row that another transaction is, at that moment, taking over,
 * completing or marking committed (and so making live again) survives the purge. Deterministic: the test writes that
 * change with the store's own statement on a connection of its own and keeps its transaction open (so it holds the
 * row's lock) while the purge runs; it commits only once the purge finished or waits on that lock. On every database.
 */
class JdbcPurgeTests extends OnEveryDatabase {

    private static final String OWNER = "the-first-owner";

    private Database database;
    private JdbcRecordStatements sql;
    private DataSource dataSource;
    private JdbcTemplate jdbc;
    private JdbcRequestIdStore store;

    @Override
    protected void open(Database database) {
        this.database = database;
        this.sql = new JdbcRecordStatements(JdbcFixture.dialect(database), JdbcStore.DEFAULT_TABLE);
        this.dataSource = database.dataSource();
        this.jdbc = new JdbcTemplate(dataSource);
        JdbcFixture.createSchema(database);
        this.store = JdbcRequestIdStore.open(JdbcStore.of(dataSource), StoreListener.NONE);
    }

    /** What another transaction does to an expired running claim, each making it live again. */
    enum Revival {
        TAKEN_OVER,
        COMPLETED,
        MARKED_COMMITTED;

        PreparedStatement prepare(JdbcRecordStatements sql, Connection connection, String recordKey)
                throws SQLException {
            PreparedStatement statement;
            switch (this) {
                case TAKEN_OVER -> {
                    statement = connection.prepareStatement(sql.takeOver);
                    statement.setString(1, "another-instance");
                    statement.setString(2, RequestRecord.NO_FINGERPRINT);
                    statement.setLong(3, Duration.ofHours(1).toMillis());
                    statement.setString(4, recordKey);
                }
                case COMPLETED -> {
                    statement = connection.prepareStatement(sql.complete);
                    statement.setString(1, "C");
                    statement.setString(2, RequestRecord.NO_FINGERPRINT);
                    statement.setBytes(3, new byte[] {1});
                    statement.setLong(4, Duration.ofHours(1).toMillis());
                    statement.setString(5, recordKey);
                    statement.setString(6, OWNER);
                }
                default -> {
                    statement = connection.prepareStatement(sql.markCommitted);
                    statement.setLong(1, Duration.ofHours(1).toMillis());
                    statement.setString(2, recordKey);
                    statement.setString(3, OWNER);
                }
            }
            return statement;
        }
    }

    @AfterParameterizedClassInvocation(injectArguments = false)
    void close() {
        store.close();
    }

    @ParameterizedTest
    @EnumSource(Revival.class)
    void aRowMadeLiveWhileThePurgeRunsSurvivesIt(Revival revival) throws Exception {
        String recordKey = "jdbc-purge:" + UUID.randomUUID();
        jdbc.update(
                "INSERT INTO idempotency_request (record_key, state, owner, fingerprint, expires_at)"
                        + " VALUES (?, 'P', ?, ?, "
                        + JdbcFixture.dialect(database).later() + ")",
                recordKey,
                OWNER,
                RequestRecord.NO_FINGERPRINT,
                -Duration.ofMinutes(1).toMillis());
        try (Connection reviving = dataSource.getConnection()) {
            reviving.setAutoCommit(false);
            try (PreparedStatement statement = revival.prepare(sql, reviving, recordKey)) {
                assertThat(statement.executeUpdate()).isEqualTo(1);
            }
            CompletableFuture<Integer> purge = CompletableFuture.supplyAsync(() -> store.purgeExpired(1000));
            Await.until(
                    Duration.ofSeconds(30),
                    "the purge to finish, or to wait on the row's lock",
                    () -> purge.isDone() || purgeWaitsOnALock());
            reviving.commit();
            purge.get(30, TimeUnit.SECONDS);
        }
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM idempotency_request WHERE record_key = ?", Integer.class, recordKey))
                .as("DEFECT if 0: the purge deleted a row made live before it")
                .isEqualTo(1);
    }

    @Test
    void theSelectionOfABatchCanUseTheIndexOnExpiresAt() {
        String plan = jdbc.execute((Connection connection) -> {
            connection.setAutoCommit(false);
            try (Statement settings = connection.createStatement();
                    PreparedStatement explain = connection.prepareStatement("EXPLAIN " + sql.purge)) {
                if (database == Database.POSTGRESQL) {
                    // Only an index condition avoids the sequential scan: a volatile clock_timestamp() cannot be one.
                    settings.execute("SET LOCAL enable_seqscan = off");
                }
                Object cutoff = database == Database.POSTGRESQL ? OffsetDateTime.now() : LocalDateTime.now();
                explain.setObject(1, cutoff);
                explain.setInt(2, 1000);
                explain.setObject(3, cutoff);
                StringBuilder lines = new StringBuilder();
                try (ResultSet rows = explain.executeQuery()) {
                    int columns = rows.getMetaData().getColumnCount();
                    while (rows.next()) {
                        for (int column = 1; column <= columns; column++) {
                            lines.append(rows.getString(column)).append(' ');
                        }
                        lines.append('\n');
                    }
                }
                return lines.toString();
            } finally {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        });
        // MariaDB: the batch's derived table (select type DERIVED) is a range scan of the index.
        assertThat(plan)
                .containsPattern(
                        database == Database.POSTGRESQL
                                ? "Index Cond: \\(expires_at <= "
                                : "DERIVED idempotency_request range \\S+ idempotency_request_expires_at ");
    }

    private boolean purgeWaitsOnALock() {
        return jdbc.queryForObject(
                        database == Database.POSTGRESQL
                                ? "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                        + " AND query LIKE 'DELETE FROM idempotency_request%'"
                                : "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'"
                                        + " AND trx_query LIKE 'DELETE r FROM%'",
                        Integer.class)
                > 0;
    }
}

package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Postgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The purge never deletes a live row: an expired row that another transaction is, at that moment, taking over,
 * completing or marking committed (and so making live again) survives the purge. Deterministic: the test writes that
 * change with the store's own statement on a connection of its own and keeps its transaction open (so it holds the
 * row's lock) while the purge runs; it commits only once the purge finished or waits on that lock.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcPurgeTests {

    private static final JdbcRecordStatements SQL = new JdbcRecordStatements(JdbcStore.DEFAULT_TABLE);
    private static final String OWNER = "the-first-owner";

    private final DataSource dataSource = Postgres.dataSource();
    private final JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    private JdbcRequestIdStore store;

    /** What another transaction does to an expired running claim, each making it live again. */
    enum Revival {
        TAKEN_OVER,
        COMPLETED,
        MARKED_COMMITTED;

        PreparedStatement prepare(Connection connection, String recordKey) throws SQLException {
            PreparedStatement statement;
            switch (this) {
                case TAKEN_OVER -> {
                    statement = connection.prepareStatement(SQL.takeOver);
                    statement.setString(1, "another-instance");
                    statement.setString(2, RequestRecord.NO_FINGERPRINT);
                    statement.setLong(3, Duration.ofHours(1).toMillis());
                    statement.setString(4, recordKey);
                }
                case COMPLETED -> {
                    statement = connection.prepareStatement(SQL.complete);
                    statement.setString(1, recordKey);
                    statement.setString(2, "C");
                    statement.setString(3, RequestRecord.NO_FINGERPRINT);
                    statement.setBytes(4, new byte[] {1});
                    statement.setLong(5, Duration.ofHours(1).toMillis());
                    statement.setString(6, OWNER);
                }
                default -> {
                    statement = connection.prepareStatement(SQL.markCommitted);
                    statement.setLong(1, Duration.ofHours(1).toMillis());
                    statement.setString(2, recordKey);
                    statement.setString(3, OWNER);
                }
            }
            return statement;
        }
    }

    @BeforeAll
    void createSchema() {
        new ResourceDatabasePopulator(new ClassPathResource("dev/idempotency/jdbc/schema-postgresql.sql"))
                .execute(dataSource);
        store = JdbcRequestIdStore.open(JdbcStore.of(dataSource), StoreListener.NONE);
    }

    @AfterAll
    void close() {
        store.close();
    }

    @ParameterizedTest
    @EnumSource(Revival.class)
    void aRowMadeLiveWhileThePurgeRunsSurvivesIt(Revival revival) throws Exception {
        String recordKey = "jdbc-purge:" + UUID.randomUUID();
        jdbc.update(
                "INSERT INTO idempotency_request (record_key, state, owner, fingerprint, expires_at)"
                        + " VALUES (?, 'P', ?, ?, clock_timestamp() - INTERVAL '1 minute')",
                recordKey,
                OWNER,
                RequestRecord.NO_FINGERPRINT);
        try (Connection reviving = dataSource.getConnection()) {
            reviving.setAutoCommit(false);
            try (PreparedStatement statement = revival.prepare(reviving, recordKey)) {
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
                    PreparedStatement explain = connection.prepareStatement("EXPLAIN " + SQL.purge)) {
                // Only an index condition avoids the sequential scan: a volatile clock_timestamp() cannot be one.
                settings.execute("SET LOCAL enable_seqscan = off");
                OffsetDateTime cutoff = OffsetDateTime.now();
                explain.setObject(1, cutoff);
                explain.setInt(2, 1000);
                explain.setObject(3, cutoff);
                StringBuilder lines = new StringBuilder();
                try (ResultSet rows = explain.executeQuery()) {
                    while (rows.next()) {
                        lines.append(rows.getString(1)).append('\n');
                    }
                }
                return lines.toString();
            } finally {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        });
        assertThat(plan).contains("Index Cond: (expires_at <= ");
    }

    private boolean purgeWaitsOnALock() {
        return jdbc.queryForObject(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                + " AND query LIKE 'DELETE FROM idempotency_request%'",
                        Integer.class)
                > 0;
    }
}

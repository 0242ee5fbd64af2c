package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Database;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * PostgreSQL only: a serialization failure of the caller's transaction (it read before the claim existed, so its
 * completion of the claim's row cannot serialize) reaches the caller as Spring's {@link ConcurrencyFailureException},
 * which retry support recognises, not as the store being unavailable. MariaDB writes the newest row whatever the
 * snapshot, so the same call commits there ({@link JdbcIsolationTests} runs the isolation levels on both).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcSerializationFailureTests {

    private final JdbcFixture records =
            new JdbcFixture(Database.POSTGRESQL, "CREATE TABLE IF NOT EXISTS jdbc_serialization_orders (id text)");
    private final JdbcTemplate jdbc = records.jdbc;

    @AfterAll
    void close() {
        records.close();
    }

    @Test
    void aSerializationFailureReachesTheCallerAsAConcurrencyFailure() {
        String key = UUID.randomUUID().toString();
        TransactionTemplate transaction = JdbcFixture.transactions(records.database);
        transaction.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        assertThatThrownBy(() -> transaction.execute(status -> {
                    jdbc.queryForList("SELECT 1 FROM jdbc_serialization_orders WHERE id = ?", key);
                    return records.requestIds.execute(
                            records.call(key),
                            () -> {
                                jdbc.update("INSERT INTO jdbc_serialization_orders (id) VALUES (?)", key);
                                return "order";
                            },
                            ResultCodec.utf8());
                }))
                .isInstanceOf(ConcurrencyFailureException.class);
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM jdbc_serialization_orders WHERE id = ?", Integer.class, key))
                .isZero();
        assertThat(records.state(key)).as("released: the retry runs").isEqualTo("absent");
    }
}

package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Database;
import dev.idempotency.testsupport.OnEveryDatabase;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Only the transaction that carries the work marks its key committed. Side transactions inside the call (a
 * {@code REQUIRES_NEW} audit row, a read-only one, another database's) settle nothing, so a call that then fails is
 * released and its retry runs; a connection bound in autocommit (a {@code JdbcTemplate} call under another manager's
 * transaction, as under a Kafka transaction) is never written to as a transaction; and a transaction around the call
 * that rolls back after the work's own transaction committed stores the result still in memory, so the retry replays.
 * On every database.
 */
class JdbcSideTransactionTests extends OnEveryDatabase {

    private static final ResultCodec<String> TEXT = ResultCodec.utf8();

    private JdbcFixture records;
    private DataSource dataSource;
    /** Another database, as the transaction manager sees it: the same server behind another DataSource. */
    private DataSource otherDatabase;

    private JdbcTemplate jdbc;
    private TransactionTemplate transactions;
    private TransactionTemplate requiresNew;
    private TransactionTemplate readOnly;
    private TransactionTemplate otherTransactions;
    private RequestIdStrategy requestIds;

    @Override
    protected void open(Database database) {
        records = new JdbcFixture(
                database,
                database == Database.POSTGRESQL
                        ? "CREATE TABLE IF NOT EXISTS jdbc_side_orders (id text,"
                                + " CONSTRAINT jdbc_side_orders_unique UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)"
                        : "CREATE TABLE IF NOT EXISTS jdbc_side_orders (id text)",
                "CREATE TABLE IF NOT EXISTS jdbc_side_audit (id text)");
        dataSource = records.database;
        otherDatabase = new DelegatingDataSource(dataSource);
        jdbc = records.jdbc;
        transactions = JdbcFixture.transactions(dataSource);
        requiresNew = JdbcFixture.transactions(dataSource);
        readOnly = JdbcFixture.transactions(dataSource);
        otherTransactions = JdbcFixture.transactions(otherDatabase);
        requestIds = records.requestIds;
        requiresNew.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        readOnly.setReadOnly(true);
    }

    @AfterParameterizedClassInvocation(injectArguments = false)
    void close() {
        records.close();
    }

    @Test
    void aRequiresNewTransactionInsideTheWorksTransactionSettlesNothing() {
        String key = UUID.randomUUID().toString();
        assertThatThrownBy(() -> requestIds.execute(
                        call(key),
                        () -> transactions.execute(status -> {
                            order(jdbc, key);
                            requiresNew.executeWithoutResult(audit -> audit(key));
                            throw new IllegalStateException("payment declined");
                        }),
                        TEXT))
                .hasMessage("payment declined");
        assertThat(state(key))
                .as("DEFECT if N: the audit row's commit marked the key")
                .isEqualTo("absent");
        assertThat(requestIds.execute(call(key), () -> "the retry ran", TEXT)).isEqualTo("the retry ran");
    }

    @Test
    void aReadOnlyTransactionSettlesNothing() {
        String key = UUID.randomUUID().toString();
        assertThatThrownBy(() -> requestIds.execute(
                        call(key),
                        () -> {
                            readOnly.executeWithoutResult(status -> jdbc.queryForList("SELECT 1"));
                            throw new IllegalStateException("payment declined");
                        },
                        TEXT))
                .hasMessage("payment declined");
        assertThat(state(key)).isEqualTo("absent");
    }

    @Test
    void anotherDatabasesTransactionSettlesNothingNorItsAutocommitConnectionToTheStoresDatabase() {
        String key = UUID.randomUUID().toString();
        assertThatThrownBy(() -> requestIds.execute(
                        call(key),
                        () -> {
                            // JdbcTemplate binds an autocommit connection to the store's database for this transaction.
                            otherTransactions.executeWithoutResult(status -> audit(key));
                            throw new IllegalStateException("payment declined");
                        },
                        TEXT))
                .hasMessage("payment declined");
        assertThat(state(key))
                .as("DEFECT if N: the other database's commit marked the key on an autocommit connection")
                .isEqualTo("absent");
    }

    @Test
    void anAutocommitConnectionUnderATransactionAroundTheCallIsNotJoined() {
        String key = UUID.randomUUID().toString();
        JdbcTemplate other = new JdbcTemplate(otherDatabase);
        assertThatThrownBy(() -> otherTransactions.executeWithoutResult(status -> {
                    requestIds.execute(call(key), () -> order(jdbc, "autocommit " + key), TEXT);
                    order(other, key);
                    JdbcFixture.failTheCommit(records.kind, () -> order(other, key));
                }))
                .rootCause()
                .hasMessageContaining(JdbcFixture.commitFailure(records.kind, "jdbc_side_orders_unique"));
        assertThat(state(key))
                .as("DEFECT if C: the completion was written on the autocommit connection before the failed commit")
                .isEqualTo("absent");
    }

    @Test
    void aTransactionAroundTheCallThatRollsBackAfterTheWorksCommitStoresTheResult() {
        String key = UUID.randomUUID().toString();
        otherTransactions.executeWithoutResult(status -> {
            requestIds.execute(call(key), () -> transactions.execute(work -> order(jdbc, key)), TEXT);
            status.setRollbackOnly(); // the Kafka transaction's commit fails after the database's
        });
        assertThat(state(key)).as("DEFECT if N: the result in memory was lost").isEqualTo("C");
        assertThat(requestIds.execute(call(key), () -> "run again", TEXT)).isEqualTo("order " + key);
    }

    private String order(JdbcTemplate template, String key) {
        template.update("INSERT INTO jdbc_side_orders (id) VALUES (?)", key);
        return "order " + key;
    }

    private void audit(String key) {
        jdbc.update("INSERT INTO jdbc_side_audit (id) VALUES (?)", key);
    }

    private String state(String key) {
        return records.state(key);
    }

    private RequestIdCall call(String key) {
        return records.call(key);
    }
}

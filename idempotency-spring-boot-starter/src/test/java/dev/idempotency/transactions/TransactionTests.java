package dev.idempotency.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.ClaimTakenOverException;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.internal.jdbc.SqlDialect;
import dev.idempotency.spi.Futures;
import dev.idempotency.stacks.ContractApplication;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Database;
import dev.idempotency.token.TokenExecutor;
import dev.idempotency.transactions.TransactionApplication.Setup;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionException;

/**
 * Calls that write to a database in a transaction settle with it: the result is stored only after the commit, and a
 * rollback, or a commit that throws, releases the claim (restores the token), so the retry runs the work and the
 * database holds exactly one order. Whether the idempotency advisor runs inside the transaction or outside it, and
 * for a transaction opened around the caller. The same with the records in Redis and in the orders' own database
 * (the JDBC store, on PostgreSQL and on MariaDB), where the record is written in the orders' transaction itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TransactionTests {

    private final Map<Setup, ConfigurableApplicationContext> apps = new EnumMap<>(Setup.class);

    @BeforeAll
    void start() {
        for (Setup setup : Setup.values()) {
            apps.put(setup, TransactionApplication.start(setup));
        }
    }

    @AfterAll
    void stop() {
        apps.values().forEach(ConfigurableApplicationContext::close);
    }

    @ParameterizedTest
    @EnumSource(Setup.class)
    void aCommittedCallIsReplayed(Setup setup) {
        TransactionApplication.Orders orders = orders(setup);
        String id = UUID.randomUUID().toString();
        assertThat(orders.place(id)).isEqualTo(1);
        assertThat(orders.place(id)).isEqualTo(1);
        assertThat(orders.runs(id)).isEqualTo(1);
        assertThat(orders.rows(id)).isEqualTo(1);
        if (setup == Setup.INSIDE_ON_JDBC_STORE) {
            assertThat(orders.recordWrittenWithTheOrder(id))
                    .as("the record committed in the order's own transaction")
                    .isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Setup.class)
    void aCommitThatFailsReleasesTheClaimSoTheRetryRuns(Setup setup) {
        TransactionApplication.Orders orders = orders(setup);
        String id = UUID.randomUUID().toString();
        orders.failCommitOf(id);
        assertThatThrownBy(() -> orders.place(id))
                .isInstanceOfAny(DataAccessException.class, TransactionException.class);
        assertThat(orders.rows(id)).as("the failed commit wrote nothing").isZero();

        assertThat(orders.place(id))
                .as("DEFECT if 1: a replay of work that never committed")
                .isEqualTo(2);
        assertThat(orders.place(id)).isEqualTo(2);
        assertThat(orders.rows(id)).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Setup.class)
    void anOuterTransactionThatRollsBackReleasesTheClaim(Setup setup) {
        TransactionApplication.Checkout checkout = apps.get(setup).getBean(TransactionApplication.Checkout.class);
        TransactionApplication.Orders orders = orders(setup);
        String id = UUID.randomUUID().toString();
        assertThatThrownBy(() -> checkout.checkout(id, true)).hasMessageContaining("payment declined");
        assertThat(orders.rows(id)).isZero();

        assertThat(checkout.checkout(id, false))
                .as("DEFECT if 1: a replay of work that rolled back")
                .isEqualTo(2);
        assertThat(checkout.checkout(id, false)).isEqualTo(2);
        assertThat(orders.rows(id)).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Setup.class)
    void aTokenSpentInATransactionThatRollsBackIsGivenBack(Setup setup) {
        ConfigurableApplicationContext app = apps.get(setup);
        TransactionApplication.Checkout checkout = app.getBean(TransactionApplication.Checkout.class);
        TransactionApplication.Orders orders = orders(setup);
        String token = app.getBean(TokenExecutor.class)
                .issue("", "notes", Duration.ofMinutes(5))
                .token();
        assertThatThrownBy(() -> checkout.note(token, true)).hasMessageContaining("rolled back");
        checkout.note(token, false);
        assertThatThrownBy(() -> checkout.note(token, false)).isInstanceOf(TokenAlreadyUsedException.class);
        assertThat(orders.notes(token)).isEqualTo(1);
    }

    /**
     * Another instance takes the claim over while the work waits before its commit (the test's own UPDATE, as that
     * instance's takeover after a pause longer than the lease): the commit fails with {@link ClaimTakenOverException}
     * and the order row written in the same transaction never commits. With the advisor inside the transaction, the
     * transaction began outside the call; with it outside, inside the call; {@code checkout} opens one around it.
     */
    @ParameterizedTest
    @EnumSource(
            value = Setup.class,
            names = {"INSIDE_ON_JDBC_STORE", "OUTSIDE_ON_JDBC_STORE", "INSIDE_ON_MARIADB", "OUTSIDE_ON_MARIADB"})
    void aClaimTakenOverBeforeTheCommitRollsTheWorkBack(Setup setup) throws Exception {
        TransactionApplication.Checkout checkout = apps.get(setup).getBean(TransactionApplication.Checkout.class);
        TransactionApplication.Orders orders = orders(setup);
        String records = apps.get(setup).getEnvironment().getRequiredProperty("idempotency.key-prefix");
        String placed = UUID.randomUUID().toString();
        Database database = setup.orders();
        assertThatThrownBy(() -> whileTakenOver(database, orders, records, placed, () -> orders.place(placed)))
                .isInstanceOf(ClaimTakenOverException.class);
        String checkedOut = UUID.randomUUID().toString();
        assertThatThrownBy(() -> whileTakenOver(
                        database, orders, records, checkedOut, () -> checkout.checkout(checkedOut, false)))
                .isInstanceOf(ClaimTakenOverException.class);
        assertThat(orders.rows(placed))
                .as("DEFECT if 1: the late commit went through")
                .isZero();
        assertThat(orders.rows(checkedOut))
                .as("DEFECT if 1: the late commit of the caller's transaction went through")
                .isZero();
    }

    /**
     * Runs {@code call} on another thread and takes its claims (the app's running claims in {@code database}, under
     * {@code records}) over while it waits after its insert; what it returns, or its failure.
     */
    private static int whileTakenOver(
            Database database, TransactionApplication.Orders orders, String records, String id, Callable<Integer> call)
            throws Throwable {
        CountDownLatch working = new CountDownLatch(1);
        CountDownLatch takenOver = new CountDownLatch(1);
        orders.pauseAfterInsert(id, () -> {
            working.countDown();
            Await.latch(takenOver, "takenOver");
        });
        CompletableFuture<Integer> running = CompletableFuture.supplyAsync(() -> {
            try {
                return call.call();
            } catch (Exception ex) {
                throw new CompletionException(ex);
            }
        });
        Await.latch(working, "working");
        assertThat(new JdbcTemplate(ContractApplication.JdbcRecords.of(database))
                        .update(
                                "UPDATE idempotency_request SET owner = 'another-instance', expires_at = "
                                        + SqlDialect.valueOf(database.name()).later()
                                        + " WHERE state = 'P' AND record_key LIKE ?",
                                Duration.ofHours(1).toMillis(),
                                records + "%request-id:%"))
                .as("the running claims taken over")
                .isPositive();
        takenOver.countDown();
        try {
            return running.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException ex) {
            throw Futures.unwrap(ex);
        }
    }

    private TransactionApplication.Orders orders(Setup setup) {
        return apps.get(setup).getBean(TransactionApplication.Orders.class);
    }
}

package dev.idempotency.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.token.TokenExecutor;
import dev.idempotency.transactions.TransactionApplication.Setup;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

/**
 * Calls that write to PostgreSQL in a transaction settle with it: the result is stored only after the commit, and a
 * rollback, or a commit that throws, releases the claim (restores the token), so the retry runs the work and the
 * database holds exactly one order. Whether the idempotency advisor runs inside the transaction or outside it, and
 * for a transaction opened around the caller. The same with the records in Redis and in the orders' own PostgreSQL
 * (the JDBC store), where the record is written in the orders' transaction itself.
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

    private TransactionApplication.Orders orders(Setup setup) {
        return apps.get(setup).getBean(TransactionApplication.Orders.class);
    }
}

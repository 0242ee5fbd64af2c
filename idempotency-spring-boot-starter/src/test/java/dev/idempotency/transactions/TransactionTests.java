package dev.idempotency.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.token.TokenExecutor;
import dev.idempotency.transactions.TransactionApplication.AdvisorPosition;
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
 * for a transaction opened around the caller.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TransactionTests {

    private final Map<AdvisorPosition, ConfigurableApplicationContext> apps = new EnumMap<>(AdvisorPosition.class);

    @BeforeAll
    void start() {
        for (AdvisorPosition position : AdvisorPosition.values()) {
            apps.put(position, TransactionApplication.start(position));
        }
    }

    @AfterAll
    void stop() {
        apps.values().forEach(ConfigurableApplicationContext::close);
    }

    @ParameterizedTest
    @EnumSource(AdvisorPosition.class)
    void aCommittedCallIsReplayed(AdvisorPosition position) {
        TransactionApplication.Orders orders = orders(position);
        String id = UUID.randomUUID().toString();
        assertThat(orders.place(id)).isEqualTo(1);
        assertThat(orders.place(id)).isEqualTo(1);
        assertThat(orders.runs(id)).isEqualTo(1);
        assertThat(orders.rows(id)).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(AdvisorPosition.class)
    void aCommitThatFailsReleasesTheClaimSoTheRetryRuns(AdvisorPosition position) {
        TransactionApplication.Orders orders = orders(position);
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
    @EnumSource(AdvisorPosition.class)
    void anOuterTransactionThatRollsBackReleasesTheClaim(AdvisorPosition position) {
        TransactionApplication.Checkout checkout = apps.get(position).getBean(TransactionApplication.Checkout.class);
        TransactionApplication.Orders orders = orders(position);
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
    @EnumSource(AdvisorPosition.class)
    void aTokenSpentInATransactionThatRollsBackIsGivenBack(AdvisorPosition position) {
        ConfigurableApplicationContext app = apps.get(position);
        TransactionApplication.Checkout checkout = app.getBean(TransactionApplication.Checkout.class);
        TransactionApplication.Orders orders = orders(position);
        String token = app.getBean(TokenExecutor.class)
                .issue("", "notes", Duration.ofMinutes(5))
                .token();
        assertThatThrownBy(() -> checkout.note(token, true)).hasMessageContaining("rolled back");
        checkout.note(token, false);
        assertThatThrownBy(() -> checkout.note(token, false)).isInstanceOf(TokenAlreadyUsedException.class);
        assertThat(orders.notes(token)).isEqualTo(1);
    }

    private TransactionApplication.Orders orders(AdvisorPosition position) {
        return apps.get(position).getBean(TransactionApplication.Orders.class);
    }
}

package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.ClaimTakenOverException;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Await;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A claim taken over before the work's transaction commits (what another instance does after a pause longer than the
 * lease) fails that commit, so the business row written in the same transaction never commits, wherever the
 * transaction began: around the call, or inside it. Deterministic: the work waits on a latch while the test takes the
 * claim over with an UPDATE of its own, as another instance's takeover would.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcTakeoverTests {

    private final JdbcFixture records = new JdbcFixture("CREATE TABLE IF NOT EXISTS jdbc_takeover_payments (id text)");
    private final JdbcTemplate jdbc = records.jdbc;
    private final TransactionTemplate transactions = JdbcFixture.transactions(records.database);

    @AfterAll
    void close() {
        records.close();
    }

    @Test
    void aTakeoverBeforeTheCommitOfTheCallersTransactionRollsItBack() throws Exception {
        assertTheLateCommitFails(key -> (working, takenOver) -> transactions.execute(status ->
                records.requestIds.execute(records.call(key), () -> pay(key, working, takenOver), ResultCodec.utf8())));
    }

    @Test
    void aTakeoverBeforeTheCommitOfATransactionBegunInsideTheCallRollsItBack() throws Exception {
        assertTheLateCommitFails(key -> (working, takenOver) -> records.requestIds.execute(
                records.call(key),
                () -> transactions.execute(status -> pay(key, working, takenOver)),
                ResultCodec.utf8()));
    }

    /** A protected payment on a key, which tells {@code working} when it wrote and waits for {@code takenOver}. */
    @FunctionalInterface
    private interface Payment {
        String run(CountDownLatch working, CountDownLatch takenOver);
    }

    /** Runs the payment of a new key, takes its claim over while it waits, and checks that nothing committed. */
    private void assertTheLateCommitFails(Function<String, Payment> payment) throws Exception {
        String key = UUID.randomUUID().toString();
        CountDownLatch working = new CountDownLatch(1);
        CountDownLatch takenOver = new CountDownLatch(1);
        CompletableFuture<String> caller =
                CompletableFuture.supplyAsync(() -> payment.apply(key).run(working, takenOver));
        Await.latch(working, "working");
        takeOver(key);
        takenOver.countDown();

        assertThatThrownBy(() -> caller.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(ClaimTakenOverException.class)
                .hasMessageContaining("taken over");
        assertThat(payments(key))
                .as("DEFECT if 1: the late commit went through")
                .isZero();
        assertThat(owner(key)).as("the new owner keeps its claim").isEqualTo("another-instance");
    }

    /** Writes the payment in the transaction bound to this thread, then waits until the claim was taken over. */
    private String pay(String key, CountDownLatch working, CountDownLatch takenOver) {
        jdbc.update("INSERT INTO jdbc_takeover_payments (id) VALUES (?)", key);
        working.countDown();
        Await.latch(takenOver, "takenOver");
        return "paid";
    }

    /** What another instance's takeover of an expired claim writes, committed on a connection of the test's own. */
    private void takeOver(String key) {
        assertThat(jdbc.update(
                        "UPDATE idempotency_request SET owner = 'another-instance',"
                                + " expires_at = clock_timestamp() + INTERVAL '1 hour'"
                                + " WHERE record_key = ? AND state = 'P'",
                        recordKey(key)))
                .isEqualTo(1);
    }

    private String owner(String key) {
        return jdbc.queryForObject(
                "SELECT owner FROM idempotency_request WHERE record_key = ?", String.class, recordKey(key));
    }

    private int payments(String key) {
        return jdbc.queryForObject("SELECT count(*) FROM jdbc_takeover_payments WHERE id = ?", Integer.class, key);
    }

    private String recordKey(String key) {
        return records.recordKey(key);
    }
}

package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Database;
import dev.idempotency.testsupport.OnEveryDatabase;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The work's transaction may run at any isolation level. Under REPEATABLE READ and SERIALIZABLE a write of a row that
 * another transaction changed after the snapshot fails (40001), so the lease of the claim's row is not renewed while
 * such a transaction carries the work; the test keeps the transaction open until a renewal was made or the lease ran
 * out. On every database (MariaDB's default isolation is REPEATABLE READ). The serialization failure that remains on
 * PostgreSQL is {@link JdbcSerializationFailureTests}'.
 */
class JdbcIsolationTests extends OnEveryDatabase {

    private static final ResultCodec<String> TEXT = ResultCodec.utf8();

    private final AtomicInteger renewals = new AtomicInteger();
    private JdbcFixture records;
    private DataSource dataSource;
    private JdbcTemplate jdbc;
    private RequestIdStrategy requestIds;

    @Override
    protected void open(Database database) {
        records = new JdbcFixture(
                database,
                JdbcStore::of,
                new StoreListener() {
                    @Override
                    public void onCall(String store, String kind, long nanos, boolean failed) {
                        if ("renew".equals(kind)) {
                            renewals.incrementAndGet();
                        }
                    }
                },
                Duration.ofMillis(600),
                "CREATE TABLE IF NOT EXISTS jdbc_isolation_orders (id text)");
        dataSource = records.database;
        jdbc = records.jdbc;
        requestIds = records.requestIds;
    }

    @AfterParameterizedClassInvocation(injectArguments = false)
    void close() {
        records.close();
    }

    static IntStream isolationLevels() {
        return IntStream.of(
                TransactionDefinition.ISOLATION_READ_COMMITTED,
                TransactionDefinition.ISOLATION_REPEATABLE_READ,
                TransactionDefinition.ISOLATION_SERIALIZABLE);
    }

    @ParameterizedTest
    @MethodSource("isolationLevels")
    void aTransactionBegunInsideTheCallCommitsWithItsMark(int isolation) {
        String key = UUID.randomUUID().toString();
        TransactionTemplate transaction = transactions(isolation);
        String result = requestIds.execute(call(key), () -> transaction.execute(status -> orderAndOutlast(key)), TEXT);
        assertThat(result).isEqualTo("order " + key);
        assertThat(state(key)).isEqualTo("C");
        assertThat(orders(key)).isEqualTo(1);
        assertThat(requestIds.execute(call(key), () -> "run again", TEXT)).isEqualTo("order " + key);
    }

    @ParameterizedTest
    @MethodSource("isolationLevels")
    void aTransactionAroundTheCallCommitsWithItsCompletion(int isolation) {
        String key = UUID.randomUUID().toString();
        String result = transactions(isolation)
                .execute(status -> requestIds.execute(call(key), () -> orderAndOutlast(key), TEXT));
        assertThat(result).isEqualTo("order " + key);
        assertThat(state(key)).isEqualTo("C");
        assertThat(orders(key)).isEqualTo(1);
    }

    /**
     * Writes the order, then keeps the transaction open until a renewal of some lease was made after that write (the
     * defect's trigger), or the claim's lease ran out without one (renewals paused).
     */
    private String orderAndOutlast(String key) {
        jdbc.update("INSERT INTO jdbc_isolation_orders (id) VALUES (?)", key);
        int before = renewals.get();
        Await.until(
                Duration.ofSeconds(30),
                "a renewal after the transaction's snapshot, or the lease to run out",
                () -> renewals.get() > before || leaseRanOut(key));
        return "order " + key;
    }

    private boolean leaseRanOut(String key) {
        return new JdbcTemplate(dataSource)
                        .queryForObject(
                                "SELECT count(*) FROM idempotency_request WHERE record_key = ?" + " AND expires_at <= "
                                        + records.dialect.now(),
                                Integer.class,
                                recordKey(key))
                == 1;
    }

    private TransactionTemplate transactions(int isolation) {
        TransactionTemplate template = JdbcFixture.transactions(dataSource);
        template.setIsolationLevel(isolation);
        return template;
    }

    private String state(String key) {
        return records.state(key);
    }

    private int orders(String key) {
        return jdbc.queryForObject("SELECT count(*) FROM jdbc_isolation_orders WHERE id = ?", Integer.class, key);
    }

    private String recordKey(String key) {
        return records.recordKey(key);
    }

    private RequestIdCall call(String key) {
        return records.call(key);
    }
}

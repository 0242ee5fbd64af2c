package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Database;
import dev.idempotency.testsupport.OnEveryDatabase;
import dev.idempotency.testsupport.Race;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The application's pool has 2 connections and 8 callers run the protected call inside transactions of their own:
 * whenever two of them hold both connections, their claims still get one, because the store's own statements use
 * connections of the store's own ({@link JdbcStore#withOwnConnections}). Every call succeeds, none is refused as store
 * unavailable. (With the store sharing the pool, the two holders wait for a third connection that never comes.)
 */
class JdbcConnectionBudgetTests extends OnEveryDatabase {

    private static final int CALLERS = 8;

    private DataSource pool;
    private JdbcTemplate jdbc;
    private JdbcFixture records;

    @Override
    protected void open(Database kind) {
        DataSource database = kind.dataSource();
        pool = new Pool(database, 2);
        jdbc = new JdbcTemplate(pool);
        records = new JdbcFixture(
                kind,
                ignored -> JdbcStore.of(pool).withThreads(2).withOwnConnections(new Pool(database, 2)),
                StoreListener.NONE,
                Duration.ofSeconds(30),
                "CREATE TABLE IF NOT EXISTS jdbc_budget_orders (id text)");
    }

    @AfterParameterizedClassInvocation(injectArguments = false)
    void close() {
        records.close();
    }

    @Test
    void eightCallersInTransactionsOnAPoolOfTwoAllSucceed() throws Exception {
        TransactionTemplate transactions = JdbcFixture.transactions(pool);
        String prefix = UUID.randomUUID().toString();
        Race.run(CALLERS, CALLERS, i -> {
            String key = prefix + i;
            String result = transactions.execute(status -> records.requestIds.execute(
                    records.call(key),
                    () -> {
                        jdbc.update("INSERT INTO jdbc_budget_orders (id) VALUES (?)", key);
                        return "order " + key;
                    },
                    ResultCodec.utf8()));
            assertThat(result).isEqualTo("order " + key);
        });
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM jdbc_budget_orders WHERE id LIKE ?", Integer.class, prefix + "%"))
                .isEqualTo(CALLERS);
    }

    /** A connection pool's budget: at most {@code size} connections out at once; a wait for one ends after 5 s. */
    static final class Pool extends DelegatingDataSource {

        private Semaphore free;

        Pool(DataSource database, int size) {
            super(database);
            this.free = new Semaphore(size, true);
        }

        @Override
        public Connection getConnection() throws SQLException {
            try {
                if (!free.tryAcquire(5, TimeUnit.SECONDS)) {
                    throw new SQLTransientConnectionException("pool exhausted: no connection within 5 s");
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new SQLTransientConnectionException("interrupted", ex);
            }
            Connection connection;
            try {
                connection = super.getConnection();
            } catch (SQLException | RuntimeException ex) {
                free.release();
                throw ex;
            }
            boolean[] closed = {false};
            return (Connection) Proxy.newProxyInstance(
                    Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if ("close".equals(method.getName()) && !closed[0]) {
                            closed[0] = true;
                            free.release();
                        }
                        try {
                            return method.invoke(connection, args);
                        } catch (java.lang.reflect.InvocationTargetException ex) {
                            throw ex.getCause();
                        }
                    });
        }
    }
}

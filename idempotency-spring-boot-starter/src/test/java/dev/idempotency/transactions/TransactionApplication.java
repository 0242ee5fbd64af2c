package dev.idempotency.transactions;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import dev.idempotency.it.TestRedis;
import dev.idempotency.stacks.ContractApplication;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

/**
 * Idempotent calls that write to PostgreSQL in a transaction. The transaction advisor has order 0; the idempotency
 * advisor's order decides whether it runs inside the transaction (its default) or outside it ({@code outside}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableTransactionManagement(order = 0)
public class TransactionApplication {

    /**
     * Whether the idempotency advisor runs inside the transaction of a method that has both annotations, and whether
     * the records live in Redis or in the same PostgreSQL as the orders ({@code idempotency.store: jdbc}).
     */
    enum Setup {
        INSIDE(true, false),
        OUTSIDE(false, false),
        INSIDE_ON_JDBC_STORE(true, true),
        OUTSIDE_ON_JDBC_STORE(false, true);

        final boolean inside;
        final boolean jdbc;

        Setup(boolean inside, boolean jdbc) {
            this.inside = inside;
            this.jdbc = jdbc;
        }
    }

    static ConfigurableApplicationContext start(Setup setup) {
        return new SpringApplicationBuilder(TransactionApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.data.redis.host=" + TestRedis.SERVER.host(),
                        "spring.data.redis.port=" + TestRedis.SERVER.port(),
                        "idempotency.key-prefix=tx-" + UUID.randomUUID() + ":",
                        "idempotency.store=" + (setup.jdbc ? "jdbc" : "redis"),
                        "idempotency.advisor-order=" + (setup.inside ? 100 : -100))
                .run();
    }

    @Bean
    DataSource dataSource() {
        return ContractApplication.JdbcRecords.postgres();
    }

    @Bean
    JdbcTemplate jdbcTemplate(DataSource dataSource) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("CREATE TABLE IF NOT EXISTS orders (id text, run int)");
        jdbc.execute("CREATE TABLE IF NOT EXISTS notes (token text, note text)");
        // Checked at commit: two equal entries in one transaction make its commit fail.
        jdbc.execute("CREATE TABLE IF NOT EXISTS entries (entry text,"
                + " CONSTRAINT entries_unique UNIQUE (entry) DEFERRABLE INITIALLY DEFERRED)");
        return jdbc;
    }

    @Bean
    PlatformTransactionManager transactionManager(DataSource dataSource) {
        return new DataSourceTransactionManager(dataSource);
    }

    @Bean
    Orders orders(JdbcTemplate jdbc) {
        return new Orders(jdbc);
    }

    @Bean
    Checkout checkout(Orders orders) {
        return new Checkout(orders);
    }

    /** Writes orders and notes; counts its runs per order. */
    public static class Orders {

        private final JdbcTemplate jdbc;
        private final Map<String, Integer> runs = new ConcurrentHashMap<>();
        private final Set<String> failingCommits = ConcurrentHashMap.newKeySet();
        private final Map<String, Runnable> pauses = new ConcurrentHashMap<>();

        public Orders(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        /** An idempotent method with a transaction of its own. */
        @Idempotent(key = "#id")
        @Transactional
        public int place(String id) {
            return insert(id);
        }

        /** An idempotent method that joins the caller's transaction. */
        @Idempotent(key = "#id", operation = "joined")
        public int placeJoined(String id) {
            return insert(id);
        }

        /** A one-time token, spent in the caller's transaction. */
        @Idempotent(strategy = Strategy.TOKEN, key = "#token", operation = "notes")
        public void note(String token, String note) {
            jdbc.update("INSERT INTO notes VALUES (?, ?)", token, note);
        }

        private int insert(String id) {
            int run = runs.merge(id, 1, Integer::sum);
            jdbc.update("INSERT INTO orders VALUES (?, ?)", id, run);
            Runnable pause = pauses.remove(id);
            if (pause != null) {
                pause.run();
            }
            if (failingCommits.remove(id)) {
                jdbc.update("INSERT INTO entries VALUES (?)", id);
                jdbc.update("INSERT INTO entries VALUES (?)", id);
            }
            return run;
        }

        /** Makes the commit of the next transaction that places {@code id} fail (a deferred constraint). */
        public void failCommitOf(String id) {
            failingCommits.add(id);
        }

        /** Runs {@code pause} in the next run for {@code id}, after its order row was written, before its commit. */
        public void pauseAfterInsert(String id, Runnable pause) {
            pauses.put(id, pause);
        }

        public int runs(String id) {
            return runs.getOrDefault(id, 0);
        }

        public int rows(String id) {
            return jdbc.queryForObject("SELECT count(*) FROM orders WHERE id = ?", Integer.class, id);
        }

        /** Whether the record of {@code id} and its order row were written by one transaction (PostgreSQL's xmin). */
        public boolean recordWrittenWithTheOrder(String id) {
            return jdbc.queryForObject(
                            "SELECT count(*) FROM orders o JOIN idempotency_request r ON r.xmin = o.xmin WHERE o.id = ?",
                            Integer.class,
                            id)
                    == 1;
        }

        public int notes(String token) {
            return jdbc.queryForObject("SELECT count(*) FROM notes WHERE token = ?", Integer.class, token);
        }
    }

    /** A service whose transaction surrounds the idempotent calls. */
    public static class Checkout {

        private final Orders orders;

        public Checkout(Orders orders) {
            this.orders = orders;
        }

        @Transactional
        public int checkout(String id, boolean rollBack) {
            int run = orders.placeJoined(id);
            if (rollBack) {
                throw new IllegalStateException("payment declined after the order was placed");
            }
            return run;
        }

        @Transactional
        public void note(String token, boolean rollBack) {
            orders.note(token, "hello");
            if (rollBack) {
                throw new IllegalStateException("rolled back after the token was spent");
            }
        }
    }
}

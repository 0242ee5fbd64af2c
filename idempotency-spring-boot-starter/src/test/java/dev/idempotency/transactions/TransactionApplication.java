package dev.idempotency.transactions;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import dev.idempotency.it.TestRedis;
import dev.idempotency.stacks.ContractApplication;
import dev.idempotency.testsupport.Database;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

/**
 * Idempotent calls that write to a database in a transaction (PostgreSQL; MariaDB with its records there). The transaction advisor has order 0; the idempotency
 * advisor's order decides whether it runs inside the transaction (its default) or outside it ({@code outside}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableTransactionManagement(order = 0)
public class TransactionApplication {

    /**
     * Whether the idempotency advisor runs inside the transaction of a method that has both annotations, and whether
     * the records live in Redis (the orders in PostgreSQL) or in the same database as the orders
     * ({@code idempotency.store: jdbc}).
     */
    enum Setup {
        INSIDE(true, null),
        OUTSIDE(false, null),
        INSIDE_ON_JDBC_STORE(true, Database.POSTGRESQL),
        OUTSIDE_ON_JDBC_STORE(false, Database.POSTGRESQL),
        INSIDE_ON_MARIADB(true, Database.MARIADB),
        OUTSIDE_ON_MARIADB(false, Database.MARIADB);

        final boolean inside;
        /** Where the records live with the orders; {@code null}: in Redis. */
        final @Nullable Database records;

        Setup(boolean inside, @Nullable Database records) {
            this.inside = inside;
            this.records = records;
        }

        /** The database of the orders. */
        Database orders() {
            return records == null ? Database.POSTGRESQL : records;
        }
    }

    static ConfigurableApplicationContext start(Setup setup) {
        return new SpringApplicationBuilder(TransactionApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.data.redis.host=" + TestRedis.SERVER.host(),
                        "spring.data.redis.port=" + TestRedis.SERVER.port(),
                        "idempotency.key-prefix=tx-" + UUID.randomUUID() + ":",
                        "idempotency.store=" + (setup.records == null ? "redis" : "jdbc"),
                        ContractApplication.JdbcRecords.DATABASE + "=" + setup.orders(),
                        "idempotency.advisor-order=" + (setup.inside ? 100 : -100))
                .run();
    }

    @Bean
    Database database(Environment environment) {
        return environment.getRequiredProperty(ContractApplication.JdbcRecords.DATABASE, Database.class);
    }

    @Bean
    DataSource dataSource(Database database) {
        return ContractApplication.JdbcRecords.of(database);
    }

    @Bean
    JdbcTemplate jdbcTemplate(DataSource dataSource, Database database) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("CREATE TABLE IF NOT EXISTS orders (id text, run int)");
        jdbc.execute("CREATE TABLE IF NOT EXISTS notes (token text, note text)");
        if (database == Database.POSTGRESQL) {
            // Checked at commit: two equal entries in one transaction make its commit fail.
            jdbc.execute("CREATE TABLE IF NOT EXISTS entries (entry text,"
                    + " CONSTRAINT entries_unique UNIQUE (entry) DEFERRABLE INITIALLY DEFERRED)");
        }
        return jdbc;
    }

    @Bean
    PlatformTransactionManager transactionManager(DataSource dataSource) {
        return new DataSourceTransactionManager(dataSource);
    }

    @Bean
    Orders orders(JdbcTemplate jdbc, Database database, PlatformTransactionManager transactions) {
        return new Orders(jdbc, database, (ConfigurableTransactionManager) transactions);
    }

    @Bean
    Checkout checkout(Orders orders) {
        return new Checkout(orders);
    }

    /** Writes orders and notes; counts its runs per order. */
    public static class Orders {

        private final JdbcTemplate jdbc;
        private final Database database;
        /** The connection whose commit is to fail on this thread (MariaDB). */
        private final ThreadLocal<Long> doomed = new ThreadLocal<>();

        private final Map<String, Integer> runs = new ConcurrentHashMap<>();
        private final Set<String> failingCommits = ConcurrentHashMap.newKeySet();
        private final Map<String, Runnable> pauses = new ConcurrentHashMap<>();

        /**
         * @param transactions the transaction manager, already joined to the records (its listener added at its
         *     initialization), so that the listener added here runs after theirs, just before COMMIT
         */
        public Orders(JdbcTemplate jdbc, Database database, ConfigurableTransactionManager transactions) {
            this.jdbc = jdbc;
            this.database = database;
            transactions.addListener(new TransactionExecutionListener() {
                @Override
                public void beforeCommit(TransactionExecution transaction) {
                    Long connection = doomed.get();
                    if (connection != null) {
                        doomed.remove();
                        new JdbcTemplate(database.dataSource()).execute("KILL " + connection);
                    }
                }
            });
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
                failTheCommit(id);
            }
            return run;
        }

        /**
         * Makes the commit of this thread's transaction fail in the database, after everything written in it: on
         * PostgreSQL two equal entries, which a deferred constraint refuses at the commit; MariaDB has no deferred
         * constraints, so the transaction's connection is killed just before its COMMIT.
         */
        private void failTheCommit(String id) {
            if (database == Database.POSTGRESQL) {
                jdbc.update("INSERT INTO entries VALUES (?)", id);
                jdbc.update("INSERT INTO entries VALUES (?)", id);
            } else {
                doomed.set(jdbc.queryForObject("SELECT CONNECTION_ID()", Long.class));
            }
        }

        /** Makes the commit of the next transaction that places {@code id} fail. */
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

        /**
         * Whether the record of {@code id} and its order row were written by one transaction (PostgreSQL's xmin; on
         * PostgreSQL only).
         */
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

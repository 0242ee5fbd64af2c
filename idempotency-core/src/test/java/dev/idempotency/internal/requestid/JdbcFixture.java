package dev.idempotency.internal.requestid;

import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.jdbc.SqlDialect;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.UndecodableResults;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Database;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import javax.sql.DataSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The JDBC record store of one test class on one of the test JVM's databases (its shipped schema), with the strategy,
 * timers and lease renewals around it, keys of its own, and the helpers the transaction tests share. Close it after the
 * class.
 */
final class JdbcFixture implements AutoCloseable {

    static final Duration TTL = Duration.ofMinutes(5);

    /** The database whose next commit on this thread fails ({@link #failTheCommit}). */
    private static final ThreadLocal<Database> DOOMED_COMMIT = new ThreadLocal<>();

    final Database kind;
    final SqlDialect dialect;
    final DataSource database;
    final JdbcTemplate jdbc;
    final RedisKeys keys = new RedisKeys("jdbc-fixture:" + UUID.randomUUID() + ":");
    final Scheduling scheduling = new Scheduling();
    final LeaseRenewer renewer = new LeaseRenewer(scheduling, StoreListener.NONE);
    final JdbcRequestIdStore store;
    final RequestIdStrategy requestIds;
    private final Duration lease;

    /**
     * @param kind the database
     * @param settings the store's settings on the fixture's database, usually {@code JdbcStore::of} (the records join
     *     transactions on that very DataSource only)
     * @param listener what hears of the store's statements
     * @param lease the lease of the calls made with {@link #call}
     * @param tables statements that make the test's own tables
     */
    JdbcFixture(
            Database kind,
            Function<DataSource, JdbcStore> settings,
            StoreListener listener,
            Duration lease,
            String... tables) {
        this.kind = kind;
        this.dialect = dialect(kind);
        this.database = kind.dataSource();
        this.jdbc = new JdbcTemplate(database);
        createSchema(kind);
        for (String table : tables) {
            jdbc.execute(table);
        }
        this.lease = lease;
        this.store = JdbcRequestIdStore.open(settings.apply(database), listener);
        this.requestIds = new RequestIdStrategy(
                store, StoreListener.NONE, keys, renewer, scheduling, Long.MAX_VALUE, UndecodableResults.FAIL);
    }

    JdbcFixture(Database kind, String... tables) {
        this(kind, JdbcStore::of, StoreListener.NONE, Duration.ofSeconds(30), tables);
    }

    /** Runs the shipped schema of {@code kind} on its test database. */
    static void createSchema(Database kind) {
        new ResourceDatabasePopulator(new ClassPathResource(kind.schemaScript())).execute(kind.dataSource());
    }

    /** The store's dialect on {@code kind}. */
    static SqlDialect dialect(Database kind) {
        return SqlDialect.valueOf(kind.name());
    }

    /** The database's time {@code millis} from now (negative: in the past), as SQL. */
    String inMillis(long millis) {
        return dialect.later().replace("?", Long.toString(millis));
    }

    String recordKey(String key) {
        return keys.requestId("", "orders", key);
    }

    RequestIdCall call(String key) {
        return new RequestIdCall(recordKey(key), null, TTL, lease, Duration.ZERO);
    }

    /** The state of the key's record, or {@code absent}. */
    String state(String key) {
        List<String> states = jdbc.queryForList(
                "SELECT state FROM idempotency_request WHERE record_key = ?", String.class, recordKey(key));
        return states.isEmpty() ? "absent" : states.get(0);
    }

    /**
     * Transactions on {@code dataSource} that the records join, as the starter sets up every transaction manager, whose
     * commit fails where {@link #failTheCommit} says so.
     */
    static TransactionTemplate transactions(DataSource dataSource) {
        DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(dataSource);
        transactionManager.addListener(RedisIdempotency.transactionListener());
        transactionManager.addListener(new TransactionExecutionListener() {
            @Override
            public void beforeCommit(TransactionExecution transaction) {
                Database doomed = DOOMED_COMMIT.get();
                if (doomed != null) {
                    DOOMED_COMMIT.remove();
                    // After the store's own listener wrote its mark, before COMMIT reaches the server.
                    Connection connection = DataSourceUtils.getConnection(dataSource);
                    Long id = new JdbcTemplate(new SingleConnectionDataSource(connection, true))
                            .queryForObject("SELECT CONNECTION_ID()", Long.class);
                    new JdbcTemplate(doomed.dataSource()).execute("KILL " + id);
                }
            }
        });
        return new TransactionTemplate(transactionManager);
    }

    /**
     * Makes the commit of the transaction bound to this thread fail in the database, after everything written in it:
     * on PostgreSQL, {@code twoEqualRows} writes two rows that a deferred unique constraint refuses at the commit;
     * MariaDB has no deferred constraints, so the transaction's connection is killed just before its COMMIT.
     */
    static void failTheCommit(Database kind, Runnable twoEqualRows) {
        if (kind == Database.POSTGRESQL) {
            twoEqualRows.run();
        } else {
            DOOMED_COMMIT.set(kind);
        }
    }

    /** What the failed commit's root cause says: the deferred constraint's name, or that the connection ended. */
    static String commitFailure(Database kind, String constraint) {
        return kind == Database.POSTGRESQL ? constraint : "socket was closed";
    }

    @Override
    public void close() {
        store.close();
        renewer.close();
        scheduling.close();
    }
}

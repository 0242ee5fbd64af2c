package dev.idempotency.internal.requestid;

import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.UndecodableResults;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Postgres;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import javax.sql.DataSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The JDBC record store of one test class on the test JVM's PostgreSQL (the shipped schema), with the strategy, timers
 * and lease renewals around it, keys of its own, and the helpers the transaction tests share. Close it after the class.
 */
final class JdbcFixture implements AutoCloseable {

    static final Duration TTL = Duration.ofMinutes(5);

    final DataSource database = Postgres.dataSource();
    final JdbcTemplate jdbc = new JdbcTemplate(database);
    final RedisKeys keys = new RedisKeys("jdbc-fixture:" + UUID.randomUUID() + ":");
    final Scheduling scheduling = new Scheduling();
    final LeaseRenewer renewer = new LeaseRenewer(scheduling, StoreListener.NONE);
    final JdbcRequestIdStore store;
    final RequestIdStrategy requestIds;
    private final Duration lease;

    /**
     * @param settings the store's settings on the fixture's database, usually {@code JdbcStore::of} (the records join
     *     transactions on that very DataSource only)
     * @param listener what hears of the store's statements
     * @param lease the lease of the calls made with {@link #call}
     * @param tables statements that make the test's own tables
     */
    JdbcFixture(Function<DataSource, JdbcStore> settings, StoreListener listener, Duration lease, String... tables) {
        new ResourceDatabasePopulator(new ClassPathResource("dev/idempotency/jdbc/schema-postgresql.sql"))
                .execute(database);
        for (String table : tables) {
            jdbc.execute(table);
        }
        this.lease = lease;
        this.store = JdbcRequestIdStore.open(settings.apply(database), listener);
        this.requestIds = new RequestIdStrategy(
                store, StoreListener.NONE, keys, renewer, scheduling, Long.MAX_VALUE, UndecodableResults.FAIL);
    }

    JdbcFixture(String... tables) {
        this(JdbcStore::of, StoreListener.NONE, Duration.ofSeconds(30), tables);
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

    /** Transactions on {@code dataSource} that the records join, as the starter sets up every transaction manager. */
    static TransactionTemplate transactions(DataSource dataSource) {
        DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(dataSource);
        transactionManager.addListener(RedisIdempotency.transactionListener());
        return new TransactionTemplate(transactionManager);
    }

    @Override
    public void close() {
        store.close();
        renewer.close();
        scheduling.close();
    }
}

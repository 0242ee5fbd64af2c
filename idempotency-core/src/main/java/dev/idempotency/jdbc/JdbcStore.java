package dev.idempotency.jdbc;

import java.time.Duration;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * Where {@code REQUEST_ID} records live when they live in the application's database instead of Redis (PostgreSQL,
 * MariaDB or MySQL, told apart by the driver's product name): give it to
 * {@link dev.idempotency.redis.RedisIdempotency.Builder#recordStore}. The table is made by {@link #POSTGRESQL_SCHEMA}
 * or {@link #MARIADB_SCHEMA} (with {@code spring.sql.init}, or a migration of {@link JdbcMigrations}).
 * Claims commit at once on connections of their own; a completion inside a transaction on this data source is written
 * in that transaction, so the record of a call commits with the work's own writes.
 *
 * @param dataSource the database
 * @param table the records' table, optionally with its schema; default {@code idempotency_request}
 * @param threads statements that run at once, off the callers' threads; keep it at most the connection pool's size
 * @param queryTimeout the longest one statement may take before its call fails as store unavailable
 * @param purgeInterval how often records whose time is up are deleted, on the store's threads; zero for never (purge
 *     them yourself with {@link dev.idempotency.redis.RedisIdempotency#purgeExpiredRecords})
 * @param ownConnections where the store's own statements (claims, renewals, settlements, purges) get their
 *     connections: {@code dataSource} itself (shared), or a small pool of the store's own on the same database, so
 *     that callers' transactions holding every connection of the application's pool cannot starve the claims they
 *     wait for; closed with the store when it is not {@code dataSource}
 */
public record JdbcStore(
        DataSource dataSource,
        String table,
        int threads,
        Duration queryTimeout,
        Duration purgeInterval,
        DataSource ownConnections) {

    /** The table the shipped schema creates. */
    public static final String DEFAULT_TABLE = "idempotency_request";

    /** Where the shipped PostgreSQL schema is, for {@code spring.sql.init.schema-locations} or a migration. */
    public static final String POSTGRESQL_SCHEMA = "classpath:dev/idempotency/jdbc/schema-postgresql.sql";

    /**
     * Where the shipped MariaDB and MySQL schema is (MariaDB 10.6 or later; MySQL 8), for
     * {@code spring.sql.init.schema-locations} or a migration.
     */
    public static final String MARIADB_SCHEMA = "classpath:dev/idempotency/jdbc/schema-mariadb.sql";

    private static final Pattern TABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

    public JdbcStore {
        Assert.notNull(dataSource, "dataSource must not be null");
        Assert.notNull(ownConnections, "ownConnections must not be null");
        Assert.isTrue(
                isValidTable(table),
                () -> "'" + table + "' is not a table name (letters, digits and '_', optionally schema.table)");
        Assert.isTrue(threads > 0, "threads must be positive");
        Assert.isTrue(
                queryTimeout != null && queryTimeout.toSeconds() >= 1, "queryTimeout must be at least one second");
        Assert.isTrue(purgeInterval != null && !purgeInterval.isNegative(), "purgeInterval must not be negative");
    }

    /** These settings, the store's own statements sharing {@code dataSource}'s connections. */
    public JdbcStore(DataSource dataSource, String table, int threads, Duration queryTimeout, Duration purgeInterval) {
        this(dataSource, table, threads, queryTimeout, purgeInterval, dataSource);
    }

    /** Whether the store's own statements share the connections of the application's {@code dataSource}. */
    public boolean sharesConnections() {
        return ownConnections == dataSource;
    }

    /** Whether {@code table} is a table name this store accepts: letters, digits and '_', optionally schema.table. */
    public static boolean isValidTable(@Nullable String table) {
        return table != null && TABLE.matcher(table).matches();
    }

    /**
     * The records in {@link #DEFAULT_TABLE} of {@code dataSource}, 8 threads, statements of at most 5 seconds, purged
     * every 5 minutes.
     */
    public static JdbcStore of(DataSource dataSource) {
        return new JdbcStore(dataSource, DEFAULT_TABLE, 8, Duration.ofSeconds(5), Duration.ofMinutes(5));
    }

    /** These settings with another table. */
    public JdbcStore withTable(String table) {
        return new JdbcStore(dataSource, table, threads, queryTimeout, purgeInterval, ownConnections);
    }

    /** These settings with another number of threads. */
    public JdbcStore withThreads(int threads) {
        return new JdbcStore(dataSource, table, threads, queryTimeout, purgeInterval, ownConnections);
    }

    /** These settings with another query timeout. */
    public JdbcStore withQueryTimeout(Duration queryTimeout) {
        return new JdbcStore(dataSource, table, threads, queryTimeout, purgeInterval, ownConnections);
    }

    /** These settings with another purge interval (zero: never). */
    public JdbcStore withPurgeInterval(Duration purgeInterval) {
        return new JdbcStore(dataSource, table, threads, queryTimeout, purgeInterval, ownConnections);
    }

    /**
     * These settings with the store's own statements on {@code ownConnections}, a small pool on the same database as
     * {@code dataSource} (at least {@code threads} connections), closed with the store.
     */
    public JdbcStore withOwnConnections(DataSource ownConnections) {
        return new JdbcStore(dataSource, table, threads, queryTimeout, purgeInterval, ownConnections);
    }
}

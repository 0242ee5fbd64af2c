package dev.idempotency.autoconfigure;

import dev.idempotency.jdbc.JdbcStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.util.ClassUtils;

/**
 * {@code idempotency.jdbc.pool}: the connections of the JDBC store's own statements. A caller's transaction holds a
 * connection of the application's pool while its protected call claims a key on another one; with as many such
 * callers as the pool has connections, every claim would wait for a connection that never comes. A small pool of the
 * store's own, derived from the application's DataSource (same URL and credentials), closes that.
 */
final class JdbcStorePool {

    private static final Logger log = LoggerFactory.getLogger(JdbcStorePool.class);
    private static final String PROPERTY = "idempotency.jdbc.pool";

    private JdbcStorePool() {}

    /** {@code store} with the connections that {@code pool} asks for; fails naming the fix when it cannot work. */
    static JdbcStore apply(JdbcStore store, IdempotencyProperties.Pool pool) {
        DataSource dataSource = store.dataSource();
        return switch (pool) {
            case SHARED -> {
                checkShared(dataSource);
                yield store;
            }
            case OWN ->
                store.withOwnConnections(derive(store)
                        .orElseThrow(() -> new InvalidConfigurationPropertyValueException(
                                PROPERTY,
                                "own",
                                "cannot derive a pool of the store's own from the DataSource ("
                                        + dataSource.getClass().getName()
                                        + "); set idempotency.jdbc.pool=shared with a pool larger than the callers'"
                                        + " transactions can hold at once")));
            case AUTO -> {
                Optional<DataSource> own = isPool(dataSource) ? derive(store) : Optional.empty();
                if (own.isEmpty()) {
                    log.info(
                            "The JDBC idempotency store shares the application's DataSource ({}); keep its pool larger"
                                    + " than the callers' transactions can hold at once, or set"
                                    + " idempotency.jdbc.pool=own",
                            dataSource.getClass().getSimpleName());
                    checkShared(dataSource);
                    yield store;
                }
                yield store.withOwnConnections(own.get());
            }
        };
    }

    /** A pool of at most one connection leaves none for a claim made inside a caller's transaction. */
    private static void checkShared(DataSource dataSource) {
        BeanWrapper pool = new BeanWrapperImpl(dataSource);
        if (pool.isReadableProperty("maximumPoolSize")
                && pool.getPropertyValue("maximumPoolSize") instanceof Integer size
                && size < 2) {
            throw new InvalidConfigurationPropertyValueException(
                    PROPERTY,
                    "shared",
                    "the DataSource's pool has " + size + " connection: a claim inside a caller's transaction would"
                            + " wait for a second one forever; set idempotency.jdbc.pool=own, or a larger pool");
        }
    }

    private static boolean isPool(DataSource dataSource) {
        return new BeanWrapperImpl(dataSource).isWritableProperty("maximumPoolSize");
    }

    /** A DataSource on the same database, a pool sized to the store's threads where it is one; empty if it cannot. */
    private static Optional<DataSource> derive(JdbcStore store) {
        if (!ClassUtils.isPresent("org.springframework.boot.jdbc.DataSourceBuilder", null)) {
            return Optional.empty();
        }
        try {
            DataSource own = DataSourceBuilder.derivedFrom(store.dataSource()).build();
            BeanWrapper pool = new BeanWrapperImpl(own);
            set(pool, "maximumPoolSize", store.threads());
            set(pool, "minimumIdle", 1);
            set(pool, "poolName", "idempotency-jdbc");
            // A claim waits for a connection no longer than for its statement.
            set(pool, "connectionTimeout", store.queryTimeout().toMillis());
            return Optional.of(reachable(own));
        } catch (RuntimeException | SQLException cannot) {
            log.debug("Cannot derive a DataSource for the JDBC idempotency store", cannot);
            return Optional.empty();
        }
    }

    /** {@code own} once it gave a connection: a DataSource that hides its URL or credentials derives one that cannot. */
    private static DataSource reachable(DataSource own) throws SQLException {
        try (Connection probe = own.getConnection()) {
            return own;
        } catch (SQLException | RuntimeException ex) {
            if (own instanceof AutoCloseable pool) {
                try {
                    pool.close();
                } catch (Exception ignored) {
                    // it never worked
                }
            }
            throw ex;
        }
    }

    private static void set(BeanWrapper pool, String property, Object value) {
        if (pool.isWritableProperty(property)) {
            pool.setPropertyValue(property, value);
        }
    }
}

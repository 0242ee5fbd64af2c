package dev.idempotency.autoconfigure;

import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.redis.RedisIdempotency;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.util.ClassUtils;

/**
 * {@code idempotency.store: jdbc}: its settings, checked at startup (a clear failure that names what is missing, a
 * single {@code DataSource} or spring-jdbc, rather than a first request that fails), and its join to the application's
 * transactions.
 */
final class JdbcRecordStore {

    private static final String PROPERTY = "idempotency.store";

    private JdbcRecordStore() {}

    /** Adds the listener that joins claims to transactions to every transaction manager that takes listeners. */
    static BeanPostProcessor transactionJoin() {
        TransactionExecutionListener listener = RedisIdempotency.transactionListener();
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof ConfigurableTransactionManager transactions
                        && !transactions.getTransactionExecutionListeners().contains(listener)) {
                    transactions.addListener(listener);
                }
                return bean;
            }
        };
    }

    static JdbcStore settings(IdempotencyProperties.Jdbc jdbc, ObjectProvider<DataSource> dataSources) {
        if (!ClassUtils.isPresent("org.springframework.jdbc.datasource.DataSourceUtils", null)) {
            throw new InvalidConfigurationPropertyValueException(
                    PROPERTY, "jdbc", "needs spring-jdbc on the class path, e.g. spring-boot-starter-jdbc");
        }
        DataSource dataSource = dataSources.getIfUnique();
        if (dataSource == null) {
            throw new InvalidConfigurationPropertyValueException(
                    PROPERTY,
                    "jdbc",
                    "needs exactly one DataSource bean (spring.datasource.url with spring-boot-starter-jdbc, or your"
                            + " own); found " + dataSources.stream().count());
        }
        return JdbcStorePool.apply(
                new JdbcStore(
                        dataSource,
                        jdbc.getTable(),
                        jdbc.getThreads(),
                        jdbc.getQueryTimeout(),
                        jdbc.getPurgeInterval()),
                jdbc.getPool());
    }
}

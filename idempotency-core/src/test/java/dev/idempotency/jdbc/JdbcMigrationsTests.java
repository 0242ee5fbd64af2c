package dev.idempotency.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.testsupport.Postgres;
import dev.idempotency.testsupport.Topologies;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import javax.sql.DataSource;
import liquibase.integration.spring.SpringLiquibase;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The shipped migrations on a real PostgreSQL: Flyway's location and Liquibase's changelog each make, in a schema of
 * their own, exactly the table the plain script makes, which the store then accepts at startup; running them again
 * changes nothing; and a table that misses a column fails the store's startup, naming all three ways to migrate.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcMigrationsTests {

    private final JdbcTemplate jdbc = new JdbcTemplate(Postgres.dataSource());
    private final LettuceConnectionFactory redis = Topologies.STANDALONE.newConnectionFactory();

    @AfterAll
    void close() {
        redis.destroy();
    }

    @Test
    void flywaysRepeatableMigrationIsThePlainScript() throws IOException {
        assertThat(text("db/idempotency/flyway/postgresql/R__idempotency_request.sql"))
                .isEqualTo(text("dev/idempotency/jdbc/schema-postgresql.sql"));
    }

    @Test
    void flywayMakesTheTableTheStoreAccepts() {
        String schema = schema("flyway");
        for (int run = 0; run < 2; run++) {
            Flyway.configure()
                    .dataSource(Postgres.dataSource())
                    .schemas(schema)
                    .locations(JdbcMigrations.FLYWAY_LOCATION)
                    .load()
                    .migrate();
        }
        assertThat(columns(schema)).isNotEmpty().isEqualTo(columns(plainScript()));
        assertThat(startsOn(schema)).isTrue();
    }

    @Test
    void liquibaseMakesTheTableTheStoreAccepts() throws Exception {
        String schema = schema("liquibase");
        for (int run = 0; run < 2; run++) {
            SpringLiquibase liquibase = new SpringLiquibase();
            liquibase.setDataSource(in(schema));
            liquibase.setChangeLog("classpath:" + JdbcMigrations.LIQUIBASE_CHANGELOG);
            liquibase.setResourceLoader(new DefaultResourceLoader());
            liquibase.afterPropertiesSet();
        }
        assertThat(columns(schema)).isNotEmpty().isEqualTo(columns(plainScript()));
        assertThat(startsOn(schema)).isTrue();
    }

    @Test
    void aTableMissingAMigrationFailsStartupNamingTheMigrations() {
        String schema = plainScript();
        jdbc.execute("ALTER TABLE " + schema + ".idempotency_request DROP COLUMN lease_until");
        assertThatThrownBy(() -> startsOn(schema))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("misses a migration")
                .hasMessageContaining(JdbcStore.POSTGRESQL_SCHEMA)
                .hasMessageContaining(JdbcMigrations.FLYWAY_LOCATION)
                .hasMessageContaining(JdbcMigrations.LIQUIBASE_CHANGELOG);
    }

    /** The plain script, run in a schema of its own: what the migrations must make. */
    private String plainScript() {
        String schema = schema("plain");
        new ResourceDatabasePopulator(new ClassPathResource("dev/idempotency/jdbc/schema-postgresql.sql"))
                .execute(in(schema));
        return schema;
    }

    private boolean startsOn(String schema) {
        RedisIdempotency.builder(redis)
                .recordStore(JdbcStore.of(Postgres.dataSource()).withTable(schema + ".idempotency_request"))
                .build()
                .close();
        return true;
    }

    private List<String> columns(String schema) {
        return jdbc.queryForList(
                "SELECT column_name || ' ' || data_type || ' ' || is_nullable FROM information_schema.columns"
                        + " WHERE table_schema = ? AND table_name = 'idempotency_request' ORDER BY ordinal_position",
                String.class,
                schema);
    }

    private String schema(String tool) {
        String schema = (tool + "_" + UUID.randomUUID().toString().replace("-", "")).toLowerCase(Locale.ROOT);
        jdbc.execute("CREATE SCHEMA " + schema);
        return schema;
    }

    /** Connections whose unqualified names are in {@code schema}, as an application's would be. */
    private static DataSource in(String schema) {
        return new DriverManagerDataSource(Postgres.jdbcUrl() + "&currentSchema=" + schema);
    }

    private static String text(String path) throws IOException {
        return new ClassPathResource(path).getContentAsString(StandardCharsets.UTF_8);
    }
}

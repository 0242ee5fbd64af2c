package dev.idempotency.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.testsupport.Database;
import dev.idempotency.testsupport.OnEveryDatabase;
import dev.idempotency.testsupport.Topologies;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import liquibase.integration.spring.SpringLiquibase;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The shipped migrations on every database: Flyway's location and Liquibase's changelog each make, in a schema (a
 * database, on MariaDB) of their own, exactly the table the plain script makes, which the store then accepts at
 * startup; running them again changes nothing; and a table that misses a column fails the store's startup, naming all
 * three ways to migrate.
 */
class JdbcMigrationsTests extends OnEveryDatabase {

    private Database database;
    private JdbcTemplate jdbc;
    private LettuceConnectionFactory redis;

    @Override
    protected void open(Database database) {
        redis = Topologies.STANDALONE.newConnectionFactory();
        this.database = database;
        this.jdbc = new JdbcTemplate(database.dataSource());
    }

    @AfterParameterizedClassInvocation(injectArguments = false)
    void close() {
        redis.destroy();
    }

    @Test
    void flywaysRepeatableMigrationIsThePlainScript() throws IOException {
        assertThat(text("db/idempotency/flyway/" + database.id() + "/R__idempotency_request.sql"))
                .isEqualTo(text(database.schemaScript()));
        if (database == Database.MARIADB) {
            // Spring Boot names the vendor after the JDBC URL: jdbc:mysql: on a MariaDB server, or MySQL itself.
            assertThat(text("db/idempotency/flyway/mysql/R__idempotency_request.sql"))
                    .isEqualTo(text(database.schemaScript()));
        }
    }

    @Test
    void flywayMakesTheTableTheStoreAccepts() {
        String schema = schema("flyway");
        for (int run = 0; run < 2; run++) {
            Flyway.configure()
                    .dataSource(database.dataSource())
                    .schemas(schema)
                    .locations(JdbcMigrations.FLYWAY_VENDOR_LOCATION.replace("{vendor}", database.id()))
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
            liquibase.setDataSource(database.inSchema(schema));
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
                .hasMessageContaining(JdbcStore.MARIADB_SCHEMA)
                .hasMessageContaining(JdbcMigrations.FLYWAY_VENDOR_LOCATION)
                .hasMessageContaining(JdbcMigrations.LIQUIBASE_CHANGELOG);
    }

    /** The plain script, run in a schema of its own: what the migrations must make. */
    private String plainScript() {
        String schema = schema("plain");
        new ResourceDatabasePopulator(new ClassPathResource(database.schemaScript()))
                .execute(database.inSchema(schema));
        return schema;
    }

    private boolean startsOn(String schema) {
        RedisIdempotency.builder(redis)
                .recordStore(JdbcStore.of(database.dataSource()).withTable(schema + ".idempotency_request"))
                .build()
                .close();
        return true;
    }

    private List<String> columns(String schema) {
        return jdbc.queryForList(
                "SELECT CONCAT(column_name, ' ', data_type, ' ', is_nullable) FROM information_schema.columns"
                        + " WHERE table_schema = ? AND table_name = 'idempotency_request' ORDER BY ordinal_position",
                String.class,
                schema);
    }

    private String schema(String tool) {
        String schema = (tool + "_" + UUID.randomUUID().toString().replace("-", "")).toLowerCase(Locale.ROOT);
        jdbc.execute("CREATE SCHEMA " + schema);
        return schema;
    }

    private static String text(String path) throws IOException {
        return new ClassPathResource(path).getContentAsString(StandardCharsets.UTF_8);
    }
}

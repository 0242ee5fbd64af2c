package dev.idempotency.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.Idempotent;
import dev.idempotency.it.TestRedis;
import dev.idempotency.testsupport.Postgres;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The JDBC store set up as the guide says, on an empty PostgreSQL database: Spring Boot's own {@code DataSource} and
 * {@code spring.sql.init} running the schema shipped in the core jar, which must happen before the store checks its
 * table; without the script, startup fails naming it.
 */
class SqlInitTests {

    private static final String SCHEMA = "classpath:dev/idempotency/jdbc/schema-postgresql.sql";

    @Test
    void springSqlInitCreatesTheTableBeforeTheStoreChecksItAndTheRecordsLiveThere() {
        try (ConfigurableApplicationContext app =
                start(emptyDatabase(), "spring.sql.init.mode=always", "spring.sql.init.schema-locations=" + SCHEMA)) {
            Payments payments = app.getBean(Payments.class);
            String receipt = payments.pay("p-1");
            assertThat(payments.pay("p-1")).isEqualTo(receipt);
            assertThat(payments.runs()).isEqualTo(1);
            assertThat(new JdbcTemplate(app.getBean(DataSource.class))
                            .queryForObject("SELECT count(*) FROM idempotency_request", Integer.class))
                    .isEqualTo(1);
        }
    }

    /** A non-embedded database runs no script unless told to ({@code spring.sql.init.mode} is {@code embedded}). */
    @Test
    void withoutTheSchemaStartupFailsNamingTheScript() {
        String database = emptyDatabase();
        assertThatThrownBy(() -> start(database, "spring.sql.init.schema-locations=" + SCHEMA)
                        .close())
                .hasStackTraceContaining("cannot read its table")
                .hasStackTraceContaining("dev/idempotency/jdbc/schema-postgresql.sql");
    }

    /** A new database on the JVM's PostgreSQL, without the records' table. */
    private static String emptyDatabase() {
        String name = "sql_init_" + UUID.randomUUID().toString().replace("-", "");
        new JdbcTemplate(Postgres.dataSource()).execute("CREATE DATABASE " + name);
        return Postgres.jdbcUrl().replace("/postgres?", "/" + name + "?");
    }

    private static ConfigurableApplicationContext start(String jdbcUrl, String... properties) {
        List<String> all = new ArrayList<>(List.of(
                "spring.data.redis.host=" + TestRedis.SERVER.host(),
                "spring.data.redis.port=" + TestRedis.SERVER.port(),
                "idempotency.key-prefix=sql-init-" + System.nanoTime() + ":",
                "idempotency.store=jdbc",
                "spring.datasource.url=" + jdbcUrl,
                // No connection pool on this class path: Boot's plain DataSource, one connection a statement.
                "spring.datasource.type=org.springframework.jdbc.datasource.SimpleDriverDataSource"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(PaymentApplication.class)
                .web(WebApplicationType.NONE)
                .properties(all.toArray(String[]::new))
                .run();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class PaymentApplication {

        @Bean
        Payments payments() {
            return new Payments();
        }
    }

    static class Payments {

        private final AtomicInteger runs = new AtomicInteger();

        @Idempotent(key = "#id")
        public String pay(String id) {
            runs.incrementAndGet();
            return "receipt " + UUID.randomUUID();
        }

        /** Through a method: the bean is a proxy, whose own fields are not the target's. */
        public int runs() {
            return runs.get();
        }
    }
}

package dev.idempotency.stacks;

import dev.idempotency.it.ReleaseController;
import dev.idempotency.it.ReportService;
import dev.idempotency.it.ShopController;
import dev.idempotency.reactive.ReactiveLedger;
import dev.idempotency.reactive.ReactiveOrdersController;
import dev.idempotency.testsupport.Database;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.server.SecurityWebFilterChain;

/**
 * The shop's controllers as they are, with Spring Security (HTTP basic, users alice and bob), on whichever web stack
 * the application runs: a user moving them from Spring MVC to WebFlux changes nothing else.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({
    ShopController.class,
    ReportService.class,
    ReleaseController.class,
    ContractApplication.Servlet.class,
    ContractApplication.Reactive.class,
    ContractApplication.JdbcRecords.class
})
public class ContractApplication {

    static final UserDetails ALICE =
            User.withUsername("alice").password("{noop}secret").roles("USER").build();
    static final UserDetails BOB =
            User.withUsername("bob").password("{noop}secret").roles("USER").build();

    /**
     * With {@code idempotency.store: jdbc}: the application's DataSource, a real database of the test JVM
     * ({@code test.database}: {@code postgresql}, the default, or {@code mariadb}), with its shipped schema run on it
     * before the records' store starts (as spring.sql.init would).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "idempotency.store", havingValue = "jdbc")
    public static class JdbcRecords {

        /** The property that names the {@link Database} of an application on the JDBC store. */
        public static final String DATABASE = "test.database";

        private static final Map<Database, DataSource> WITH_SCHEMA = new ConcurrentHashMap<>();

        @Bean
        DataSource dataSource(Environment environment) {
            return of(environment.getProperty(DATABASE, Database.class, Database.POSTGRESQL));
        }

        /** The PostgreSQL of the test JVM, with the records' table. */
        public static DataSource postgres() {
            return of(Database.POSTGRESQL);
        }

        /** {@code database} of the test JVM, with the records' table (made once: tests poll the table through this). */
        public static DataSource of(Database database) {
            return WITH_SCHEMA.computeIfAbsent(database, JdbcRecords::withSchema);
        }

        /** The property that starts an application on the JDBC store in {@code database}. */
        public static String[] on(Database database) {
            return new String[] {"idempotency.store=jdbc", DATABASE + "=" + database.name()};
        }

        private static DataSource withSchema(Database database) {
            DataSource dataSource = database.dataSource();
            new ResourceDatabasePopulator(new ClassPathResource(database.schemaScript())).execute(dataSource);
            return dataSource;
        }
    }

    /** Spring Security on Spring MVC: HTTP basic, users alice and bob; every request permitted. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    public static class Servlet {

        @Bean
        SecurityFilterChain security(HttpSecurity http) throws Exception {
            return http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                    .httpBasic(Customizer.withDefaults())
                    .csrf(csrf -> csrf.disable())
                    .build();
        }

        @Bean
        InMemoryUserDetailsManager users() {
            return new InMemoryUserDetailsManager(ALICE, BOB);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @Import({ReactiveOrdersController.class, ReactiveLedger.class, ReactiveInfrastructure.class})
    static class Reactive {}

    /** Spring Security on WebFlux (HTTP basic, alice and bob; every exchange permitted), event loops of its own. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    public static class ReactiveInfrastructure {

        @Bean
        SecurityWebFilterChain security(ServerHttpSecurity http) {
            return http.authorizeExchange(exchanges -> exchanges.anyExchange().permitAll())
                    .httpBasic(Customizer.withDefaults())
                    .csrf(ServerHttpSecurity.CsrfSpec::disable)
                    .build();
        }

        @Bean
        MapReactiveUserDetailsService users() {
            return new MapReactiveUserDetailsService(ALICE, BOB);
        }

        /**
         * Event loops of its own: with Reactor Netty's global ones, any other context of this JVM that closes (tests
         * start and close many) would stop this server.
         */
        @Bean
        ReactorResourceFactory reactorResourceFactory() {
            ReactorResourceFactory resources = new ReactorResourceFactory();
            resources.setUseGlobalResources(false);
            return resources;
        }
    }
}

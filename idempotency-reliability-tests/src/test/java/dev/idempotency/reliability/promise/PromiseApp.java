package dev.idempotency.reliability.promise;

import dev.idempotency.kafka.KafkaErrorHandling;
import dev.idempotency.testsupport.Postgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.FixedBackOff;

/** The application the promise checker drives: every entry path with the strategies that apply to it. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({PromiseApp.Servlet.class, PromiseApp.Reactive.class, PromiseApp.Kafka.class, PromiseApp.JdbcRecords.class})
public class PromiseApp {

    /** The ledger of the instances started with {@code promise.ledger=shared}: two instances of one deployment. */
    private static final Ledger SHARED_LEDGER = new Ledger();

    /**
     * The ledger: {@code promise.ledger=shared} the shared one; {@code promise.ledger-file=PATH} (an application JVM a
     * history kills: {@link KillableApp}) one that also appends to that file; else one of its own.
     */
    @Bean
    Ledger ledger(Environment environment) {
        String file = environment.getProperty("promise.ledger-file");
        if (file != null) {
            return new Ledger(new LedgerFile(Path.of(file)));
        }
        return "shared".equals(environment.getProperty("promise.ledger")) ? SHARED_LEDGER : new Ledger();
    }

    @Bean
    Work work(Ledger ledger) {
        return new Work(ledger);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @Import({
        ServletPaths.class,
        BeanWork.class,
        AsyncServletPaths.class,
        StreamPaths.class,
        SsePaths.class,
        BeanAsyncWork.class,
        BeanAsyncPaths.class,
        RenderPaths.class
    })
    static class Servlet {}

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @Import(ReactivePaths.class)
    static class Reactive {

        /** Event loops of its own, so that closing another application of this JVM does not stop this server. */
        @Bean
        ReactorResourceFactory reactorResourceFactory() {
            ReactorResourceFactory resources = new ReactorResourceFactory();
            resources.setUseGlobalResources(false);
            return resources;
        }
    }

    /**
     * With {@code idempotency.store: jdbc}: the REQUEST_ID records and the tokens in the test JVM's PostgreSQL, with the
     * shipped schema (locks stay in Redis), and the bean paths under a transaction their caller began.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "idempotency.store", havingValue = "jdbc")
    @Import(TransactionalPaths.class)
    static class JdbcRecords {

        private static final Lazy<DataSource> POSTGRES = new Lazy<>(() -> {
            DataSource dataSource = Postgres.dataSource();
            new ResourceDatabasePopulator(new ClassPathResource("dev/idempotency/jdbc/schema-postgresql.sql"))
                    .execute(dataSource);
            return dataSource;
        });

        /** The test JVM's PostgreSQL, with the shipped schema: every JDBC instance's, and {@link OtherInstance}'s. */
        static DataSource postgres() {
            return POSTGRES.get();
        }

        @Bean
        DataSource dataSource() {
            return POSTGRES.get();
        }

        @Bean
        Effects effects(DataSource dataSource) {
            return new Effects(dataSource);
        }

        @Bean
        DataSourceTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        @Bean
        TransactionTemplate transactionTemplate(DataSourceTransactionManager transactionManager) {
            return new TransactionTemplate(transactionManager);
        }
    }

    /** Kafka listeners, only where the checker starts them ({@code promise.kafka}), without a web server. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty("promise.kafka")
    @Import(KafkaPaths.class)
    static class Kafka {

        /** Two attempts for work that fails: the histories' failing work fails on every delivery. */
        @Bean
        CommonErrorHandler kafkaErrorHandler() {
            return KafkaErrorHandling.retryInProgress(
                    new DefaultErrorHandler(new FixedBackOff(0, 1)), Duration.ofMillis(100));
        }
    }

    /** Starts the application on {@code type} against {@code backend}, with the checker's settings and {@code more}. */
    static ConfigurableApplicationContext start(WebApplicationType type, Backend backend, String... more) {
        List<String> settings = new ArrayList<>(backend.springProperties());
        settings.addAll(List.of(more));
        return start(type, settings, PromiseApp.class);
    }

    /**
     * Starts the application on {@code type} from {@code sources}, with the checker's settings and {@code more} (where
     * Redis is among them).
     */
    static ConfigurableApplicationContext start(WebApplicationType type, List<String> more, Class<?>... sources) {
        List<String> properties = new ArrayList<>(List.of(
                "server.port=0",
                "server.address=127.0.0.1",
                "server.shutdown=immediate",
                "spring.main.banner-mode=off",
                "spring.main.log-startup-info=false",
                "logging.level.root=OFF", // failing work is part of the histories: its stack traces are noise
                "logging.level.dev.idempotency=WARN",
                "spring.data.redis.timeout=500ms",
                "spring.data.redis.connect-timeout=500ms",
                "idempotency.key-prefix=promise:",
                "idempotency.request-id.lease=" + History.LEASE.toMillis() + "ms",
                "idempotency.lock.lease=" + History.LEASE.toMillis() + "ms",
                "idempotency.lock.wait=300ms",
                "idempotency.token.endpoint.max-per-caller=0", // every client is 127.0.0.1
                "spring.mvc.async.request-timeout=400ms"));
        properties.addAll(more);
        return new SpringApplicationBuilder(sources)
                .web(type)
                .properties(properties.toArray(String[]::new))
                .run();
    }

    static int port(ConfigurableApplicationContext app) {
        return app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }
}

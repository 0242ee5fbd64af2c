package dev.idempotency.edges;

import dev.idempotency.it.TestRedis;
import dev.idempotency.stacks.ContractApplication;
import dev.idempotency.stacks.Stack;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.server.WebFilter;

/**
 * Handlers whose work the test ends, on either stack, with the settings a test gives ({@code idempotency.store=jdbc}:
 * the records and tokens in the test JVM's PostgreSQL,
 * or its MariaDB with {@code test.database=MARIADB}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({
    EdgeApplication.Servlet.class,
    EdgeApplication.Reactive.class,
    ContractApplication.Servlet.class,
    ContractApplication.ReactiveInfrastructure.class,
    ContractApplication.JdbcRecords.class
})
public class EdgeApplication {

    @Bean
    Work work() {
        return new Work();
    }

    @Bean
    Quotes quotes() {
        return new Quotes();
    }

    /** Counts the outcomes of protected calls ({@code idempotency.requests}). */
    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    /** How many protected calls ended with {@code outcome} so far. */
    static double outcomes(ConfigurableApplicationContext app, String outcome) {
        return app.getBean(MeterRegistry.class).find("idempotency.requests").tag("outcome", outcome).counters().stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @Import(ServletEdges.class)
    static class Servlet {}

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @Import({ReactiveEdges.class, DeliveryEdges.class})
    static class Reactive {

        @Bean
        Stock stock(Work work) {
            return new Stock(work);
        }

        @Bean
        ReactiveBeans reactiveBeans(Work work, Stock stock) {
            return new ReactiveBeans(work, stock);
        }

        @Bean
        WebFilter writeTracer() {
            return DeliveryEdges.writeTracer();
        }
    }

    /** Starts the application on {@code stack} with {@code properties}, on a free port and the JVM's Redis. */
    static ConfigurableApplicationContext start(Stack stack, String... properties) {
        List<String> all = new ArrayList<>(List.of(
                "server.port=0",
                "spring.data.redis.host=" + TestRedis.SERVER.host(),
                "spring.data.redis.port=" + TestRedis.SERVER.port(),
                "idempotency.key-prefix=edge-" + System.nanoTime() + ":",
                "idempotency.request-id.max-response-size=1KB",
                // the policies of ReactiveBeans
                "idempotency.policies.short-lease.lease=1s",
                "idempotency.policies.no-wait.wait=0s"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(EdgeApplication.class)
                .web(stack == Stack.MVC ? WebApplicationType.SERVLET : WebApplicationType.REACTIVE)
                .properties(all.toArray(String[]::new))
                .run();
    }

    static int port(ConfigurableApplicationContext app) {
        return app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }
}

package dev.idempotency.client;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.util.function.UnaryOperator;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.service.registry.ImportHttpServices;

/**
 * A pure client application: the starter on the classpath, Boot's RestClient and WebClient builders, an HTTP interface
 * client, and no Redis at all (its auto-configuration is excluded, so the server half cannot set itself up).
 */
@SpringBootConfiguration
@EnableAutoConfiguration(
        excludeName = {
            "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration"
        })
@ImportHttpServices(group = "orders", types = OrdersApi.class)
class ClientApp {

    /** A client application calling {@code serverUrl}, with the client half on; add sources and properties. */
    static SpringApplicationBuilder builder(String serverUrl) {
        return new SpringApplicationBuilder(ClientApp.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.config.name=client-tests-client",
                        "spring.main.banner-mode=off",
                        "idempotency.client.enabled=true",
                        "idempotency.client.hosts=127.0.0.1",
                        "spring.http.serviceclient.orders.base-url=" + serverUrl,
                        "client-tests.server-url=" + serverUrl);
    }

    /** Starts a client application, set up by {@code setup}, that reaches the order server through a new proxy. */
    static Proxied throughProxy(UnaryOperator<SpringApplicationBuilder> setup) throws IOException {
        DroppingProxy proxy = new DroppingProxy(OrderServer.port());
        return new Proxied(proxy, setup.apply(builder(proxy.baseUrl())).run());
    }

    /** A client application and the proxy in front of the order server; closing stops both. */
    record Proxied(DroppingProxy proxy, ConfigurableApplicationContext context) implements AutoCloseable {

        @Override
        public void close() throws IOException {
            context.close();
            proxy.close();
        }
    }

    static RestClient restClient(ApplicationContext client) {
        return client.getBean(RestClient.Builder.class)
                .baseUrl(client.getEnvironment().getRequiredProperty("client-tests.server-url"))
                .build();
    }

    static WebClient webClient(ApplicationContext client) {
        return client.getBean(WebClient.Builder.class)
                .baseUrl(client.getEnvironment().getRequiredProperty("client-tests.server-url"))
                .build();
    }

    /** The client's count of calls that ended with {@code outcome}. */
    static double calls(ApplicationContext client, String outcome) {
        return client.getBean(MeterRegistry.class)
                .get("idempotency.client.requests")
                .tag("outcome", outcome)
                .counter()
                .count();
    }
}

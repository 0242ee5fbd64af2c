package dev.idempotency.stacks;

import dev.idempotency.it.TestRedis;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The two web stacks a user may run the same controllers on. Each runs {@link ContractApplication} (the shop's
 * controllers, Spring Security, application.yml) on a real port and the JVM's real Redis; started on first use, once
 * per JVM, and closed at exit.
 */
public enum Stack {
    MVC(WebApplicationType.SERVLET),
    WEBFLUX(WebApplicationType.REACTIVE);

    private static final Map<Deployment, ConfigurableApplicationContext> RUNNING = new HashMap<>();

    private final WebApplicationType type;

    Stack(WebApplicationType type) {
        this.type = type;
    }

    /** The running application of this stack, its records in Redis. */
    public ConfigurableApplicationContext app() {
        return app(new Deployment(this, null));
    }

    /**
     * The running application of {@code deployment}, which is on this stack: with a database, its {@code REQUEST_ID}
     * records in it ({@link ContractApplication.JdbcRecords}).
     */
    ConfigurableApplicationContext app(Deployment deployment) {
        synchronized (RUNNING) {
            return RUNNING.computeIfAbsent(deployment, running -> start(running.storeProperties()));
        }
    }

    private ConfigurableApplicationContext start(String... properties) {
        return new SpringApplicationBuilder(ContractApplication.class)
                .web(type)
                .properties(
                        "server.port=0",
                        "spring.data.redis.host=" + TestRedis.SERVER.host(),
                        "spring.data.redis.port=" + TestRedis.SERVER.port())
                .properties(properties)
                .run();
    }

    public int port() {
        return app().getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    public <T> T bean(Class<T> type) {
        return app().getBean(type);
    }
}

package dev.idempotency.stacks;

import dev.idempotency.it.TestRedis;
import java.util.EnumMap;
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

    private static final Map<Stack, ConfigurableApplicationContext> RUNNING = new EnumMap<>(Stack.class);
    private static final Map<Stack, ConfigurableApplicationContext> RUNNING_ON_JDBC = new EnumMap<>(Stack.class);

    private final WebApplicationType type;

    Stack(WebApplicationType type) {
        this.type = type;
    }

    /** The running application of this stack, its records in Redis. */
    public synchronized ConfigurableApplicationContext app() {
        return RUNNING.computeIfAbsent(this, stack -> start());
    }

    /**
     * The running application of this stack with {@code idempotency.store: jdbc}: its {@code REQUEST_ID} records in a
     * real PostgreSQL ({@link ContractApplication.JdbcRecords}).
     */
    public synchronized ConfigurableApplicationContext appOnJdbc() {
        return RUNNING_ON_JDBC.computeIfAbsent(this, stack -> start("idempotency.store=jdbc"));
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

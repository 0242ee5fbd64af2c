package dev.idempotency.sample.redis;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts a {@link LocalRedisServer} and points {@code spring.data.redis.host/port} at it, unless the application names
 * a Redis itself ({@code spring.data.redis.host}, {@code port}, {@code url}, or sentinel or cluster nodes) or needs none
 * ({@code idempotency.store: in-memory}).
 *
 * <p>A bean factory post-processor rather than an {@code EnvironmentPostProcessor}: it runs once every property source
 * is in place, including those a test adds with {@code @DynamicPropertySource} (which an environment post-processor
 * would not see yet), and still before any bean, so before the Redis connection factory is created. The server stops
 * when the context closes, and from a JVM shutdown hook should the context never be closed.
 */
public class LocalRedis implements BeanFactoryPostProcessor, EnvironmentAware, PriorityOrdered, DisposableBean {

    /** Name of the property source that carries the local server's address; first in line, so it wins. */
    public static final String PROPERTY_SOURCE = "localRedis";

    static final List<String> CONNECTION_PROPERTIES = List.of(
            "spring.data.redis.host",
            "spring.data.redis.port",
            "spring.data.redis.url",
            "spring.data.redis.sentinel.nodes",
            "spring.data.redis.cluster.nodes");

    private static final Logger log = LoggerFactory.getLogger(LocalRedis.class);

    private @Nullable ConfigurableEnvironment environment;
    private volatile @Nullable LocalRedisServer server;
    private @Nullable Thread shutdownHook;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = (ConfigurableEnvironment) environment;
    }

    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        ConfigurableEnvironment env = environment;
        if (env == null) {
            throw new IllegalStateException("LocalRedis needs the environment; register it as a bean");
        }
        Optional<String> configured =
                CONNECTION_PROPERTIES.stream().filter(env::containsProperty).findFirst();
        if (configured.isPresent()) {
            log.debug("{} is set: using that Redis, not starting one", configured.get());
            return;
        }
        if ("in-memory".equalsIgnoreCase(env.getProperty("idempotency.store"))) {
            log.debug("idempotency.store is in-memory: no Redis needed, not starting one");
            return;
        }
        LocalRedisServer started = startServer();
        server = started;
        Thread hook = new Thread(started::close, "local-redis-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        shutdownHook = hook;
        env.getPropertySources()
                .addFirst(new MapPropertySource(
                        PROPERTY_SOURCE,
                        Map.of("spring.data.redis.host", started.host(), "spring.data.redis.port", started.port())));
        log.info(
                "Started a local Redis at {}:{} ({}); set spring.data.redis.host/port or url to use your own Redis",
                started.host(),
                started.port(),
                started.binary());
    }

    private static LocalRedisServer startServer() {
        try {
            return LocalRedisServer.start();
        } catch (RuntimeException ex) {
            // Say what the way out is: the bundled binary does not run everywhere (e.g. an unusual OS or libc).
            throw new IllegalStateException(
                    "Could not start a local Redis (" + ex.getMessage() + "). Install redis-server on the PATH, or "
                            + "set spring.data.redis.host/port (or url) to use a Redis you run yourself",
                    ex);
        }
    }

    /** The server this bean started, empty when the application configured its own Redis. */
    public Optional<LocalRedisServer> server() {
        return Optional.ofNullable(server);
    }

    @Override
    public void destroy() {
        LocalRedisServer started = server;
        if (started == null) {
            return;
        }
        started.close();
        log.info("Stopped the local Redis at {}:{}", started.host(), started.port());
        Thread hook = shutdownHook;
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ex) {
                // The JVM is already shutting down, and the hook has nothing left to do.
            }
        }
    }
}

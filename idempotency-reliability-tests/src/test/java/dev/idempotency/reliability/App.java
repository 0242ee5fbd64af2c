package dev.idempotency.reliability;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** One running instance of {@link ReliabilityApp} on a random port, talking to the given Redis. */
final class App implements AutoCloseable {

    private final ConfigurableApplicationContext context;
    private final Http http;

    private App(ConfigurableApplicationContext context) {
        this.context = context;
        this.http = new Http(port());
    }

    /**
     * Starts an instance; {@code properties} ({@code name=value}) override the defaults: a 500 ms Redis timeout, a 2 s
     * claim lease, no graceful shutdown, and headers up to 128 KB so that oversized keys reach the library.
     */
    static App start(String redisHost, int redisPort, String... properties) {
        return new App(new SpringApplicationBuilder(ReliabilityApp.class)
                .run(arguments(redisHost, redisPort, properties).toArray(String[]::new)));
    }

    /** The command line of an instance: the defaults of {@link #start}, overridden by {@code properties}. */
    static List<String> arguments(String redisHost, int redisPort, String... properties) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("server.port", "0");
        all.put("server.address", "127.0.0.1");
        all.put("server.shutdown", "immediate");
        all.put("server.max-http-request-header-size", "128KB");
        all.put("spring.main.banner-mode", "off");
        all.put("spring.main.log-startup-info", "false");
        all.put("spring.data.redis.host", redisHost);
        all.put("spring.data.redis.port", Integer.toString(redisPort));
        all.put("spring.data.redis.timeout", "500ms");
        all.put("spring.data.redis.connect-timeout", "500ms");
        all.put("spring.data.redis.lettuce.shutdown-timeout", "0");
        all.put("logging.level.org.springframework.web", "ERROR"); // 400s for malformed input are expected here
        all.put("idempotency.request-id.lease", "2s");
        all.put("idempotency.lock.lease", "2s");
        // The load generators are one client address, issuing hundreds of tokens a minute: no per-caller bound.
        all.put("idempotency.token.endpoint.max-per-caller", "0");
        for (String property : properties) {
            int equals = property.indexOf('=');
            all.put(property.substring(0, equals), property.substring(equals + 1));
        }
        List<String> arguments = new ArrayList<>();
        all.forEach((name, value) -> arguments.add("--" + name + "=" + value));
        return arguments;
    }

    int port() {
        return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
    }

    Http http() {
        return http;
    }

    ReliabilityApp.Endpoints endpoints() {
        return context.getBean(ReliabilityApp.Endpoints.class);
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    @Override
    public void close() {
        context.close();
    }
}

package dev.idempotency.testsupport;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where the harness gets its Redis servers from.
 *
 * <p>Chosen by the system property {@value #PROPERTY} or, when that is unset, the environment variable
 * {@value #ENVIRONMENT_VARIABLE}; the value is one of {@code auto} (the default), {@code process},
 * {@code testcontainers} or {@code embedded}. A running server never reports {@link #AUTO}.
 */
public enum RedisProvider {
    /** Try {@link #PROCESS}, then {@link #TESTCONTAINERS}, then {@link #EMBEDDED}, using the first that starts. */
    AUTO,
    /**
     * {@code redis-server} child processes, from the {@code PATH} or else the binary bundled for the purpose (see
     * {@link RedisBinary}); the only provider with fault injection, and every topology.
     */
    PROCESS,
    /** A {@code redis:7.0} Docker container started through Testcontainers. */
    TESTCONTAINERS,
    /** The Redis 6.2 binary bundled in {@code com.github.codemonstur:embedded-redis}. */
    EMBEDDED;

    /** System property that selects the provider. */
    public static final String PROPERTY = "idempotency.test.redis";

    /** Environment variable that selects the provider when the system property is unset. */
    public static final String ENVIRONMENT_VARIABLE = "IDEMPOTENCY_TEST_REDIS";

    /** The lower-case name used in configuration and log lines, e.g. {@code process}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The provider selected by {@value #PROPERTY} or {@value #ENVIRONMENT_VARIABLE}, {@link #AUTO} if neither is set. */
    public static RedisProvider configured() {
        String property = System.getProperty(PROPERTY);
        if (property != null && !property.isBlank()) {
            return parse(property, "system property " + PROPERTY);
        }
        String variable = System.getenv(ENVIRONMENT_VARIABLE);
        if (variable != null && !variable.isBlank()) {
            return parse(variable, "environment variable " + ENVIRONMENT_VARIABLE);
        }
        return AUTO;
    }

    static RedisProvider parse(String value, String source) {
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(provider -> provider.id().equals(wanted))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown Redis provider '" + value + "' in " + source
                        + "; expected one of "
                        + Arrays.stream(values()).map(RedisProvider::id).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return id();
    }
}

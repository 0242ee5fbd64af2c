package dev.idempotency.diagnostics;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Warns once the application is ready about settings that silently weaken idempotency: an eviction policy that can
 * drop records, and a Redis command timeout that is unset (Lettuce then waits 60 s) or above 5 s, which would hold
 * requests during an outage instead of answering 503. Never fails startup.
 */
public final class StartupDiagnostics implements ApplicationListener<ApplicationReadyEvent> {

    /** Longest command timeout that still answers a Redis outage promptly. */
    public static final Duration MAX_RECOMMENDED_TIMEOUT = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(StartupDiagnostics.class);

    private final RedisDiagnostics redis;
    private final Environment environment;

    /**
     * Creates the startup checks.
     *
     * @param redis the Redis server checks
     * @param environment where {@code spring.data.redis.timeout} is read
     */
    public StartupDiagnostics(RedisDiagnostics redis, Environment environment) {
        this.redis = redis;
        this.environment = environment;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        checkTimeout();
        checkEviction();
    }

    private void checkTimeout() {
        String timeout = environment.getProperty("spring.data.redis.timeout");
        if (timeout == null) {
            log.warn("spring.data.redis.timeout is not set: during a Redis outage requests wait for Lettuce's 60 s"
                    + " default before failing; set it to a few seconds (e.g. 2s)");
            return;
        }
        try {
            Duration parsed = DurationStyle.detectAndParse(timeout);
            if (parsed.compareTo(MAX_RECOMMENDED_TIMEOUT) > 0) {
                log.warn(
                        "spring.data.redis.timeout is {}: during a Redis outage requests wait that long before 503;"
                                + " consider {}s or less",
                        timeout,
                        MAX_RECOMMENDED_TIMEOUT.toSeconds());
            }
        } catch (IllegalArgumentException ex) {
            // Spring Boot itself reports a malformed timeout when it binds the Redis properties.
        }
    }

    private void checkEviction() {
        try {
            RedisDiagnostics.Snapshot snapshot = redis.read();
            if (snapshot.mayEvict()) {
                log.warn(
                        "Redis maxmemory-policy is {}: under memory pressure Redis may evict idempotency records and"
                                + " duplicates would run again; use noeviction for the Redis holding them",
                        snapshot.maxmemoryPolicy());
            }
        } catch (RuntimeException ex) {
            log.warn("Could not read Redis diagnostics at startup: {}", ex.getMessage());
        }
    }
}

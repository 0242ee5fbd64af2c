package dev.idempotency.bench.report;

import java.util.Properties;
import org.springframework.boot.SpringBootVersion;
import org.springframework.core.SpringVersion;
import org.springframework.data.redis.core.RedisTemplate;
import tools.jackson.databind.json.JsonMapper;

/** Versions of the libraries on the class path, as the report lists them; {@code run.sh} names JMH's. */
final class Versions {

    private Versions() {}

    /** Adds every version {@code env} does not already name. */
    static void fill(Properties env) {
        env.putIfAbsent("spring-boot", String.valueOf(SpringBootVersion.getVersion()));
        env.putIfAbsent("spring-framework", String.valueOf(SpringVersion.getVersion()));
        env.putIfAbsent("spring-data-redis", implementation(RedisTemplate.class));
        env.putIfAbsent("lettuce", implementation(io.lettuce.core.RedisClient.class));
        env.putIfAbsent("jackson", JsonMapper.builder().build().version().toString());
        env.putIfAbsent("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    }

    private static String implementation(Class<?> type) {
        String version = type.getPackage().getImplementationVersion();
        return version == null ? "?" : version;
    }
}

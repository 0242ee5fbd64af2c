package dev.idempotency.sample.redis;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Registers {@link LocalRedis}, which gives the sample a Redis of its own when none is configured. */
@Configuration(proxyBeanMethods = false)
public class LocalRedisConfiguration {

    /** Static, as every bean factory post-processor should be: it is created before this configuration class. */
    @Bean
    public static LocalRedis localRedis() {
        return new LocalRedis();
    }
}

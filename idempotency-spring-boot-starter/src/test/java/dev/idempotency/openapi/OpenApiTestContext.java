package dev.idempotency.openapi;

import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.web.servlet.IdempotencyWebMvcAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;

/** A servlet application context with the starter, Spring MVC and {@link DocumentedController}, on real Redis. */
final class OpenApiTestContext {

    private static final RedisServer REDIS = RedisServer.start();

    private OpenApiTestContext() {}

    static WebApplicationContextRunner runner() {
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataRedisAutoConfiguration.class,
                        WebMvcAutoConfiguration.class,
                        IdempotencyAutoConfiguration.class,
                        IdempotencyWebMvcAutoConfiguration.class,
                        IdempotencyOpenApiAutoConfiguration.class))
                .withUserConfiguration(DocumentedController.class)
                .withPropertyValues(
                        "spring.data.redis.host=" + REDIS.host(),
                        "spring.data.redis.port=" + REDIS.port(),
                        "idempotency.policies.relaxed.ttl=48h",
                        "idempotency.policies.relaxed.fingerprint=false");
    }
}

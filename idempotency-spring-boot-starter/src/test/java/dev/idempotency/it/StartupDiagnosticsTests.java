package dev.idempotency.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.RealRedis;
import dev.idempotency.testsupport.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Warnings at startup for settings that silently weaken idempotency; startup itself never fails for them. */
@RealRedis
@ExtendWith(OutputCaptureExtension.class)
class StartupDiagnosticsTests {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class MinimalApplication {}

    @Test
    void evictionPolicyAndMissingTimeoutAreReported(@Dedicated RedisServer redis, CapturedOutput output) {
        LettuceConnectionFactory admin = redis.newConnectionFactory();
        admin.getConnection().serverCommands().setConfig("maxmemory-policy", "volatile-lru");
        try (ConfigurableApplicationContext context = start(redis)) {
            assertThat(context.isRunning()).isTrue();
        }
        assertThat(output)
                .contains("Redis maxmemory-policy is volatile-lru")
                .contains("spring.data.redis.timeout is not set");
    }

    @Test
    void healthySetupStaysQuiet(@Dedicated RedisServer redis, CapturedOutput output) {
        try (ConfigurableApplicationContext context = start(redis, "--spring.data.redis.timeout=2s")) {
            assertThat(context.isRunning()).isTrue();
        }
        assertThat(output).doesNotContain("maxmemory-policy is").doesNotContain("spring.data.redis.timeout is");
    }

    @Test
    void longTimeoutIsReported(@Dedicated RedisServer redis, CapturedOutput output) {
        try (ConfigurableApplicationContext context = start(redis, "--spring.data.redis.timeout=30s")) {
            assertThat(context.isRunning()).isTrue();
        }
        assertThat(output).contains("spring.data.redis.timeout is 30s");
    }

    private static ConfigurableApplicationContext start(RedisServer redis, String... arguments) {
        String[] all = new String[arguments.length + 3];
        all[0] = "--spring.data.redis.host=" + redis.host();
        all[1] = "--spring.data.redis.port=" + redis.port();
        all[2] = "--spring.config.name=none";
        System.arraycopy(arguments, 0, all, 3, arguments.length);
        return new SpringApplicationBuilder(MinimalApplication.class)
                .web(WebApplicationType.NONE)
                .run(all);
    }
}

package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

@RealRedis
class RedisServerTests {

    private static RedisServer fromBeforeAll;

    // The shared server is never flushed, so every test writes under keys of its own.
    private final String prefix = "harness-test:" + UUID.randomUUID() + ":";

    @BeforeAll
    static void captureSharedServer(RedisServer redis) {
        fromBeforeAll = redis;
    }

    @Test
    void startsAServerThatServesSetAndGetThroughTheConnectionFactory(RedisServer redis) {
        StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());

        template.opsForValue().set(prefix + "greeting", "hello");

        assertThat(template.opsForValue().get(prefix + "greeting")).isEqualTo("hello");
        assertThat(redis.provider()).isNotEqualTo(RedisProvider.AUTO);
        assertThat(redis.version()).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(redis.uri()).isEqualTo("redis://" + redis.host() + ":" + redis.port());
    }

    @Test
    void sharesOneServerPerJvmAndRefusesFaultsOnIt(RedisServer redis) {
        assertThat(redis).isSameAs(fromBeforeAll);
        assertThatThrownBy(redis::kill)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@Dedicated");
        assertThatThrownBy(redis::flushAll).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void commandStatsCountCommandsIncludingThoseRunInsideLua(@Dedicated RedisServer redis) {
        assertThat(redis).isNotSameAs(fromBeforeAll);
        StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
        RedisScript<String> setThenGet =
                RedisScript.of("redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])", String.class);
        redis.resetStats();

        template.opsForValue().set("a", "1");
        template.opsForValue().set("b", "2");
        String fromScript = template.execute(setThenGet, List.of("c"), "3");

        assertThat(fromScript).isEqualTo("3");
        assertThat(redis.commandCalls("set")).isEqualTo(3);
        assertThat(redis.commandCalls("get")).isEqualTo(1);
        assertThat(redis.commandStats()).containsKey("evalsha");

        redis.resetStats();
        assertThat(redis.commandCalls("set")).isZero();
    }

    @Test
    void flushAllEmptiesADedicatedServer(@Dedicated RedisServer redis) {
        StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
        template.opsForValue().set("doomed", "x");

        redis.flushAll();

        assertThat(template.hasKey("doomed")).isFalse();
    }
}

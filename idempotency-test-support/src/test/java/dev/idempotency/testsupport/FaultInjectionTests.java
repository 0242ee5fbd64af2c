package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.core.StringRedisTemplate;

@RealRedis
class FaultInjectionTests {

    private static final Duration SHORT_TIMEOUT = Duration.ofMillis(500);

    @Test
    void killedServerFailsCommandsAndRestartsOnTheSamePort(@Dedicated RedisServer redis) {
        StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory(SHORT_TIMEOUT));
        template.opsForValue().set("before", "kill");
        int port = redis.port();

        redis.kill();
        assertThatThrownBy(() -> template.opsForValue().get("before")).isInstanceOf(DataAccessException.class);

        redis.restart();
        assertThat(redis.port()).isEqualTo(port);
        StringRedisTemplate fresh = new StringRedisTemplate(redis.newConnectionFactory());
        assertThat(fresh.opsForValue().get("before")).as("no persistence").isNull();
        // The connection that saw the kill reconnects by itself.
        Await.until(Duration.ofSeconds(10), "the old connection to reconnect", () -> works(template));
    }

    @Test
    void pausedServerTimesOutAndAnswersAgainAfterResume(@Dedicated RedisServer redis) {
        StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory(SHORT_TIMEOUT));
        template.opsForValue().set("key", "value");

        redis.pause();
        assertThatThrownBy(() -> template.opsForValue().get("key")).isInstanceOf(QueryTimeoutException.class);

        redis.resume();
        assertThat(template.opsForValue().get("key")).isEqualTo("value");
    }

    @Test
    void stoppedServerComesBackWithRestart(@Dedicated RedisServer redis) {
        redis.stop();
        redis.restart();

        StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
        template.opsForValue().set("after", "restart");
        assertThat(template.opsForValue().get("after")).isEqualTo("restart");
    }

    private static boolean works(StringRedisTemplate template) {
        try {
            template.opsForValue().set("probe", "1");
            return true;
        } catch (DataAccessException e) {
            return false;
        }
    }
}

package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RealRedis;
import dev.idempotency.testsupport.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The fault proxy itself: each mode does what the scenarios rely on, and the connection recovers afterwards. */
@RealRedis
class FaultProxyTests {

    private static final Duration TIMEOUT = Duration.ofMillis(300);

    private FaultProxy proxy;
    private LettuceConnectionFactory factory;
    private RedisGateway redis;
    private RedisAdmin admin;
    private final String key = "proxy-test:" + UUID.randomUUID();

    @BeforeEach
    void start(RedisServer server) {
        proxy = FaultProxy.start(server.host(), server.port());
        factory = CoreStack.standalone(proxy.host(), proxy.port(), TIMEOUT);
        redis = new RedisGateway(factory, StoreListener.NONE);
        admin = new RedisAdmin(server.host(), server.port());
    }

    @AfterEach
    void stop() {
        redis.close();
        factory.destroy();
        proxy.close();
        admin.close();
    }

    @Test
    void passForwardsBothWays() {
        set("v1");
        assertThat(get()).isEqualTo("v1");
    }

    @Test
    void delayLongerThanTheTimeoutTimesOutThenTheConnectionStillWorks() {
        set("before");
        proxy.delay(Duration.ofMillis(3 * TIMEOUT.toMillis()));
        assertThatThrownBy(() -> set("delayed")).isInstanceOf(IdempotencyStoreUnavailableException.class);
        proxy.pass();
        assertThat(Race.await(Duration.ofSeconds(5), 20, () -> "delayed".equals(admin.get(key))))
                .as("the delayed command still reached Redis")
                .isTrue();
        set("after");
        assertThat(get()).isEqualTo("after");
    }

    @Test
    void pauseHoldsBytesAndDeliversThemOnResume() {
        set("before");
        proxy.pause();
        assertThatThrownBy(() -> set("held")).isInstanceOf(IdempotencyStoreUnavailableException.class);
        assertThat(admin.get(key)).as("nothing forwarded while paused").isEqualTo("before");
        proxy.pass();
        assertThat(Race.await(Duration.ofSeconds(5), 20, () -> "held".equals(admin.get(key))))
                .as("the held command is delivered on resume")
                .isTrue();
        set("after");
        assertThat(get()).isEqualTo("after");
    }

    @Test
    void blackHoleSwallowsEverythingAndItsConnectionsCloseWhenItEnds() {
        set("before");
        proxy.blackHole();
        assertThatThrownBy(() -> set("lost")).isInstanceOf(IdempotencyStoreUnavailableException.class);
        proxy.pass();
        assertThat(admin.get(key)).as("nothing forwarded").isEqualTo("before");
        assertThat(Race.await(Duration.ofSeconds(10), 50, this::setSucceeds)).isTrue();
        assertThat(get()).isEqualTo("after");
    }

    @Test
    void resetBreaksConnectionsUntilTheModeChanges() {
        set("before");
        int accepted = proxy.connectionsAccepted();
        proxy.reset();
        assertThatThrownBy(() -> set("refused")).isInstanceOf(IdempotencyStoreUnavailableException.class);
        proxy.pass();
        assertThat(Race.await(Duration.ofSeconds(10), 50, this::setSucceeds)).isTrue();
        assertThat(proxy.connectionsAccepted()).as("the client reconnected").isGreaterThan(accepted);
    }

    @Test
    void droppedReplyTakesEffectButNeverArrives() {
        set("before");
        proxy.dropReplies(command -> command.name().equals("SET") && command.mentions(key), 1, Duration.ofSeconds(1));
        assertThatThrownBy(() -> set("applied")).isInstanceOf(IdempotencyStoreUnavailableException.class);
        assertThat(admin.get(key)).as("the command reached Redis").isEqualTo("applied");
        assertThat(proxy.droppedReplies()).isEqualTo(1);
        assertThat(Race.await(Duration.ofSeconds(10), 50, this::setSucceeds)).isTrue();
        assertThat(get()).isEqualTo("after");
    }

    @Test
    void dropAllRepliesWhileSet() {
        proxy.dropAllReplies(true);
        assertThatThrownBy(() -> set("one")).isInstanceOf(IdempotencyStoreUnavailableException.class);
        proxy.dropAllReplies(false);
        assertThat(Race.await(Duration.ofSeconds(10), 50, this::setSucceeds)).isTrue();
    }

    private boolean setSucceeds() {
        try {
            set("after");
            return true;
        } catch (IdempotencyStoreUnavailableException ex) {
            return false;
        }
    }

    private void set(String value) {
        Futures.join(redis.call(
                "test",
                commands ->
                        commands.set(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8))));
    }

    private String get() {
        byte[] value = Futures.join(redis.call("test", commands -> commands.get(key.getBytes(StandardCharsets.UTF_8))));
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}

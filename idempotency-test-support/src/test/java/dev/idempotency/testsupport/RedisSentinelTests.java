package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisException;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

@RealRedis
class RedisSentinelTests {

    private static final Duration RECONNECT_TIMEOUT = Duration.ofSeconds(15);

    @Test
    void theSameFactoryWritesToTheNewMasterAfterEachFailover(RedisSentinel sentinel) {
        StringRedisTemplate template = new StringRedisTemplate(sentinel.newConnectionFactory(Duration.ofSeconds(1)));
        RedisServer original = sentinel.master();
        RedisServer replica = sentinel.replica();
        template.opsForValue().set("before", "failover");
        assertThat(servingPort(template)).isEqualTo(original.port());

        sentinel.failover();

        assertThat(sentinel.master()).isSameAs(replica);
        assertThat(sentinel.replica()).isSameAs(original);
        assertThat(replica.admin().isMaster()).isTrue();
        assertThat(original.admin().info("replication"))
                .contains("role:slave", "master_port:" + replica.port(), "master_link_status:up");
        // Sentinel killed the factory's connection; Lettuce reconnects to whatever master the Sentinels name now.
        Await.until(RECONNECT_TIMEOUT, "the factory to write again", () -> writes(template, "after", "failover"));
        assertThat(servingPort(template)).isEqualTo(replica.port());
        StringRedisTemplate newMaster = new StringRedisTemplate(replica.newConnectionFactory());
        assertThat(newMaster.opsForValue().get("after")).isEqualTo("failover");
        assertThat(newMaster.opsForValue().get("before"))
                .as("replicated before the failover")
                .isEqualTo("failover");

        // And back: the demoted master must be a replica the Sentinels trust for a second failover.
        sentinel.failover();

        assertThat(sentinel.master()).isSameAs(original);
        Await.until(RECONNECT_TIMEOUT, "the factory to write again", () -> writes(template, "back", "again"));
        assertThat(servingPort(template)).isEqualTo(original.port());
        assertThat(new StringRedisTemplate(original.newConnectionFactory())
                        .opsForValue()
                        .get("after"))
                .isEqualTo("failover");
    }

    @Test
    void killingTheMasterMakesTheSentinelsPromoteTheReplica(RedisSentinel sentinel) {
        StringRedisTemplate template = new StringRedisTemplate(sentinel.newConnectionFactory(Duration.ofSeconds(1)));
        template.opsForValue().set("before", "kill");
        RedisServer original = sentinel.master();
        RedisServer replica = sentinel.replica();

        original.kill();

        // Down after 3 s, agreed by two Sentinels, then an elected leader promotes the replica.
        Await.until(
                Duration.ofSeconds(30),
                "the Sentinels to promote " + replica.address(),
                () -> quietly(
                        () -> sentinel.master() == replica && replica.admin().isMaster()));
        Await.until(RECONNECT_TIMEOUT, "the factory to write again", () -> writes(template, "after", "kill"));
        assertThat(servingPort(template)).isEqualTo(replica.port());

        // Back on its port, the old master is told to replicate the new one.
        original.restart();
        Await.until(
                Duration.ofSeconds(30),
                "the restarted " + original.address() + " to replicate " + replica.address(),
                () -> quietly(() -> original.admin()
                        .info("replication")
                        .contains("master_port:" + replica.port() + "\r\nmaster_link_status:up")),
                () -> sentinelLogs(sentinel));
        assertThat(sentinel.replica()).isSameAs(original);
    }

    @Test
    void exposesItsSentinelsAndSpringProperties(RedisSentinel sentinel) {
        String nodes = sentinel.sentinels().stream().map(RedisServer::address).collect(Collectors.joining(","));

        assertThat(sentinel.sentinels())
                .hasSize(3)
                .allSatisfy(node -> assertThat(node.admin().info("server")).contains("redis_mode:sentinel"));
        assertThat(sentinel.masterName()).isEqualTo("harness-master");
        assertThat(sentinel.springProperties())
                .containsExactly(
                        Map.entry("spring.data.redis.sentinel.master", "harness-master"),
                        Map.entry("spring.data.redis.sentinel.nodes", nodes));
        assertThat(sentinel.name()).isEqualTo("sentinel");
        sentinel.resetStats();
        new StringRedisTemplate(sentinel.newConnectionFactory()).opsForValue().set("counted", "1");
        assertThat(sentinel.commandCalls("set")).as("on the master only").isEqualTo(1);
    }

    @Test
    void theSharedSentinelTopologyRefusesFailover() {
        RedisSentinel shared = (RedisSentinel) Topologies.SENTINEL.topology();

        assertThatThrownBy(shared::failover)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shared");
        assertThatThrownBy(() -> shared.master().kill()).isInstanceOf(IllegalStateException.class);
    }

    /** Sentinel ends a node's client connections (ours too) when it reconfigures it: ask again then. */
    private static boolean quietly(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (RedisException e) {
            return false;
        }
    }

    private static String sentinelLogs(RedisSentinel sentinel) {
        return sentinel.sentinels().stream().map(RedisServer::diagnostics).collect(Collectors.joining("\n"));
    }

    private static boolean writes(StringRedisTemplate template, String key, String value) {
        try {
            template.opsForValue().set(key, value);
            return true;
        } catch (DataAccessException e) {
            return false;
        }
    }

    /** The port of the server behind the template's connection, as that server reports it. */
    private static int servingPort(StringRedisTemplate template) {
        String port = template.execute((RedisCallback<String>)
                connection -> connection.serverCommands().info("server").getProperty("tcp_port"));
        return Integer.parseInt(port);
    }
}

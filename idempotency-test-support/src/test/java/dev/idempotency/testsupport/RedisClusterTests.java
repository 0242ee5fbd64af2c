package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;

@RealRedis
class RedisClusterTests {

    private static final int KEYS = 30;

    private final String prefix = "harness-test:" + UUID.randomUUID() + ":";

    @Test
    void keysSpreadOverAllThreeMastersAreReadableThroughTheClusterConnection(RedisCluster cluster) {
        StringRedisTemplate template = new StringRedisTemplate(cluster.newConnectionFactory());

        IntStream.range(0, KEYS).forEach(i -> template.opsForValue().set(prefix + i, "v" + i));

        assertThat(cluster.masters()).hasSize(3);
        IntStream.range(0, KEYS)
                .forEach(i -> assertThat(template.opsForValue().get(prefix + i)).isEqualTo("v" + i));
        for (RedisServer master : cluster.masters()) {
            assertThat(cluster.clusterInfo(master)).contains("cluster_state:ok");
            StringRedisTemplate node = new StringRedisTemplate(master.newConnectionFactory());
            assertThat(node.keys(prefix + "*")).as("keys on %s", master).isNotEmpty();
        }
        assertThat(cluster.commandCalls("set")).isGreaterThanOrEqualTo(KEYS);
    }

    @Test
    void failoverTurnsAReplicaIntoAMaster(@Dedicated(clusterReplicas = 1) RedisCluster cluster) {
        StringRedisTemplate template = new StringRedisTemplate(cluster.newConnectionFactory());
        IntStream.range(0, KEYS).forEach(i -> template.opsForValue().set("key" + i, "v" + i));
        assertThat(cluster.nodes()).hasSize(6);
        RedisServer replica = cluster.replicas().get(0);

        cluster.failover(replica);

        assertThat(cluster.masters()).hasSize(3).contains(replica);
        IntStream.range(0, KEYS)
                .forEach(i -> assertThat(template.opsForValue().get("key" + i)).isEqualTo("v" + i));
    }
}

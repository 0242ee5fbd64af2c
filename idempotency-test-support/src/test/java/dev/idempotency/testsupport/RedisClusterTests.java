package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
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

    @Test
    void everyNodeSeesTheNewRolesAsSoonAsFailoverReturns(@Dedicated(clusterReplicas = 2) RedisCluster cluster) {
        assertThat(cluster.nodes()).hasSize(9);
        RedisServer first = cluster.replicas().get(0);
        RedisServer firstOldMaster = masterOf(cluster, first);
        RedisServer second = cluster.replicas().stream()
                .filter(replica -> !masterOf(cluster, replica).equals(firstOldMaster))
                .findFirst()
                .orElseThrow();

        // Two shards, then the first shard back to its original master, which is a replica by then.
        for (RedisServer replica : List.of(first, second, firstOldMaster)) {
            RedisServer oldMaster = masterOf(cluster, replica);
            List<RedisServer> shard = cluster.nodes().stream()
                    .filter(node -> !node.equals(replica))
                    .filter(node ->
                            node.equals(oldMaster) || masterOf(cluster, node).equals(oldMaster))
                    .collect(Collectors.toList());
            List<String> slots = line(clusterNodes(replica), oldMaster).slots();
            assertThat(shard).hasSize(2);

            cluster.failover(replica);

            // No waiting here: failover() has returned, so every node's own view must already agree.
            for (RedisServer node : cluster.nodes()) {
                String view = clusterNodes(node);
                assertThat(cluster.clusterInfo(node))
                        .as("CLUSTER INFO of %s", node)
                        .contains("cluster_state:ok");
                Line promoted = line(view, replica);
                assertThat(promoted.flags()).as("%s seen by %s", replica, node).contains("master");
                assertThat(promoted.slots())
                        .as("slots of %s seen by %s", replica, node)
                        .isEqualTo(slots);
                List<String> replicasOfPromoted = view.lines()
                        .map(Line::parse)
                        .filter(entry -> entry.masterId().equals(promoted.id()))
                        .map(Line::address)
                        .collect(Collectors.toList());
                assertThat(replicasOfPromoted)
                        .as("replicas of %s seen by %s:%n%s", replica, node, view)
                        .containsExactlyInAnyOrderElementsOf(
                                shard.stream().map(RedisServer::address).collect(Collectors.toList()));
            }
            for (RedisServer member : shard) {
                String replication = member.admin().info("replication");
                assertThat(replication)
                        .contains("role:slave", "master_port:" + replica.port(), "master_link_status:up");
            }
            assertThat(cluster.masters()).hasSize(3).contains(replica).doesNotContain(oldMaster);
        }
    }

    private static RedisServer masterOf(RedisCluster cluster, RedisServer node) {
        String view = clusterNodes(node);
        Line self = view.lines()
                .map(Line::parse)
                .filter(entry -> entry.flags().contains("myself"))
                .findFirst()
                .orElseThrow();
        if (self.flags().contains("master")) {
            return node;
        }
        String masterAddress = view.lines()
                .map(Line::parse)
                .filter(entry -> entry.id().equals(self.masterId()))
                .findFirst()
                .orElseThrow()
                .address();
        return cluster.nodes().stream()
                .filter(candidate -> candidate.address().equals(masterAddress))
                .findFirst()
                .orElseThrow();
    }

    private static Line line(String view, RedisServer node) {
        return view.lines()
                .map(Line::parse)
                .filter(entry -> entry.address().equals(node.address()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line for " + node + " in\n" + view));
    }

    private static String clusterNodes(RedisServer node) {
        return node.admin().call(commands -> commands.clusterNodes());
    }

    /** A CLUSTER NODES line, parsed here independently of the harness's own parser. */
    private record Line(String id, String address, List<String> flags, String masterId, List<String> slots) {

        static Line parse(String line) {
            String[] fields = line.trim().split(" ");
            return new Line(
                    fields[0],
                    fields[1].substring(0, fields[1].indexOf('@')),
                    List.of(fields[2].split(",")),
                    fields[3],
                    List.of(fields).subList(8, fields.length));
        }
    }
}

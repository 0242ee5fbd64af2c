package dev.idempotency.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/** Starts cluster-enabled nodes and joins them into a cluster. */
final class ClusterBootstrap {

    static final int MASTERS = 3;
    static final Duration READY_TIMEOUT = Duration.ofSeconds(15);
    private static final int SLOTS = 16384;

    private ClusterBootstrap() {}

    /**
     * Starts {@code 3 * (1 + replicasPerMaster)} nodes; closes them all if any step fails.
     *
     * @param olderFirstMaster whether the first master runs the Redis 6.2 binary bundled in embedded-redis
     */
    static List<RedisServer> startNodes(int replicasPerMaster, boolean olderFirstMaster) {
        List<RedisServer> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < MASTERS * (1 + replicasPerMaster); i++) {
                nodes.add(
                        i == 0 && olderFirstMaster
                                ? RedisServer.open(EmbeddedBackend.start(ClusterBootstrap::nodeSettings, true))
                                : Launcher.process(ClusterBootstrap::nodeArgs, true));
            }
            create(nodes);
            return nodes;
        } catch (RuntimeException e) {
            nodes.forEach(RedisServer::close);
            throw e;
        }
    }

    /** {@link #nodeArgs} as lines of a configuration file. */
    private static List<String> nodeSettings(int port) {
        List<String> args = nodeArgs(port);
        List<String> settings = new ArrayList<>();
        for (int i = 0; i < args.size(); i += 2) {
            settings.add(args.get(i).substring(2) + " " + args.get(i + 1));
        }
        return settings;
    }

    private static List<String> nodeArgs(int port) {
        return List.of(
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes-" + port + ".conf",
                "--cluster-node-timeout", "2000");
    }

    /**
     * Joins the nodes as {@code redis-cli --cluster create} would, with commands only: each master takes its third of
     * the slots and a config epoch of its own, every node meets the first, and each replica, once it knows its master,
     * replicates it (node {@code MASTERS + i} follows master {@code i % MASTERS}).
     */
    private static void create(List<RedisServer> nodes) {
        for (int m = 0; m < MASTERS; m++) {
            int[] slots = IntStream.range(m * SLOTS / MASTERS, (m + 1) * SLOTS / MASTERS)
                    .toArray();
            long epoch = m + 1L;
            nodes.get(m).admin().call(commands -> {
                commands.clusterSetConfigEpoch(epoch);
                return commands.clusterAddSlots(slots);
            });
        }
        RedisServer first = nodes.get(0);
        nodes.subList(1, nodes.size())
                .forEach(node -> node.admin().call(commands -> commands.clusterMeet(first.host(), first.port())));
        for (int i = MASTERS; i < nodes.size(); i++) {
            RedisServer replica = nodes.get(i);
            String master = nodes.get(i % MASTERS).admin().call(commands -> commands.clusterMyId());
            Await.until(
                    READY_TIMEOUT,
                    replica.address() + " to learn of its master " + master,
                    () -> clusterNodes(replica).contains(master),
                    () -> "CLUSTER NODES:\n" + clusterNodes(replica));
            replica.admin().call(commands -> commands.clusterReplicate(master));
        }
    }

    /**
     * Waits until every node reports {@code cluster_state:ok}, every replica is linked to its master, and
     * every node's {@code CLUSTER NODES} shows the whole topology with all links connected. The last check
     * matters for failover: a master ignores a manual failover from a replica it does not yet know about.
     */
    static void awaitHealthy(List<RedisServer> nodes) {
        int replicas = nodes.size() - MASTERS;
        for (RedisServer node : nodes) {
            Await.until(
                    READY_TIMEOUT,
                    "cluster_state:ok on " + node.address(),
                    () -> "ok".equals(RedisInfo.field(clusterInfo(node), "cluster_state")),
                    () -> "CLUSTER INFO:\n" + clusterInfo(node));
            Await.until(READY_TIMEOUT, "replica " + node.address() + " to link up with its master", () -> {
                String replication = node.admin().info("replication");
                return "master".equals(RedisInfo.field(replication, "role"))
                        || "up".equals(RedisInfo.field(replication, "master_link_status"));
            });
            Await.until(
                    READY_TIMEOUT,
                    node.address() + " to see " + MASTERS + " masters and " + replicas + " replicas, all connected",
                    () -> seesTopology(clusterNodes(node), replicas),
                    () -> "CLUSTER NODES:\n" + clusterNodes(node));
        }
    }

    private static boolean seesTopology(String clusterNodes, int replicas) {
        List<ClusterNodes.Entry> entries = ClusterNodes.parse(clusterNodes).entries();
        long masters = entries.stream().filter(ClusterNodes.Entry::isMaster).count();
        long slaves = entries.stream().filter(ClusterNodes.Entry::isReplica).count();
        boolean allConnected = entries.stream().allMatch(entry -> entry.connected() && !entry.failing());
        return masters == MASTERS && slaves == replicas && allConnected;
    }

    static String clusterNodes(RedisServer node) {
        return node.admin().call(commands -> commands.clusterNodes());
    }

    static String clusterInfo(RedisServer node) {
        return node.admin().call(commands -> commands.clusterInfo());
    }
}

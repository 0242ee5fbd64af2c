package dev.idempotency.testsupport;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis Cluster of three masters, optionally with replicas, made of {@code redis-server} processes on
 * 127.0.0.1. Needs the {@link RedisProvider#PROCESS process} provider; other providers fail with
 * {@link UnsupportedOperationException}. Closing it destroys its connection factories and every node.
 */
public final class RedisCluster implements RedisTopology, AutoCloseable {

    // A manual failover moves the replicas of the shard one by one, each with a (partial) resync.
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(1);

    private final List<RedisServer> nodes;
    private final ConnectionFactories factories = new ConnectionFactories();
    private volatile boolean shared;

    private RedisCluster(List<RedisServer> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** Starts three masters without replicas. */
    public static RedisCluster start() {
        return start(0);
    }

    /** Starts three masters with {@code replicasPerMaster} replicas each (0 to 2) and waits for {@code cluster_state:ok}. */
    public static RedisCluster start(int replicasPerMaster) {
        return start(replicasPerMaster, false);
    }

    /**
     * Starts three masters of mixed versions, as in a rolling upgrade caught midway: the first runs the Redis 6.2
     * binary bundled in embedded-redis (which cannot be paused or killed), the others the {@code redis-server} on the
     * PATH.
     */
    public static RedisCluster startMixedVersions() {
        return start(0, true);
    }

    private static RedisCluster start(int replicasPerMaster, boolean olderFirstMaster) {
        if (replicasPerMaster < 0 || replicasPerMaster > 2) {
            throw new IllegalArgumentException("replicasPerMaster must be 0, 1 or 2, not " + replicasPerMaster);
        }
        Launcher.requireProcessProvider("RedisCluster");
        RedisCluster cluster = new RedisCluster(ClusterBootstrap.startNodes(replicasPerMaster, olderFirstMaster));
        try {
            ClusterBootstrap.awaitHealthy(cluster.nodes);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        RedisServer first = cluster.nodes.get(0);
        Launcher.announce(
                first.provider(),
                first.version(),
                "cluster (" + ClusterBootstrap.MASTERS + " masters, " + replicasPerMaster * ClusterBootstrap.MASTERS
                        + " replicas"
                        + (olderFirstMaster
                                ? "; the first master " + first.version() + ", the others "
                                        + cluster.nodes.get(1).version()
                                : "")
                        + ") at " + cluster.addresses());
        return cluster;
    }

    /** Every node, masters first as created; roles change after a {@link #failover(RedisServer)}. */
    public List<RedisServer> nodes() {
        return nodes;
    }

    /** The nodes that are masters right now. */
    public List<RedisServer> masters() {
        return nodes.stream().filter(node -> node.admin().isMaster()).collect(Collectors.toList());
    }

    /** The nodes that are replicas right now. */
    public List<RedisServer> replicas() {
        return nodes.stream().filter(node -> !node.admin().isMaster()).collect(Collectors.toList());
    }

    /** {@code cluster}. */
    @Override
    public String name() {
        return "cluster";
    }

    /** A started cluster connection factory with a 2 s command timeout; destroyed when the cluster closes. */
    @Override
    public LettuceConnectionFactory newConnectionFactory() {
        return newConnectionFactory(RedisServer.DEFAULT_COMMAND_TIMEOUT);
    }

    /** A started cluster connection factory (topology refreshed every second) with the given timeout. */
    @Override
    public LettuceConnectionFactory newConnectionFactory(Duration commandTimeout) {
        List<String> seeds = nodes.stream().map(RedisServer::address).collect(Collectors.toList());
        return factories.cluster(seeds, commandTimeout);
    }

    /**
     * {@code spring.data.redis.cluster.nodes} (every node), and the adaptive plus 1 s periodic topology refresh that
     * {@link #newConnectionFactory(Duration)} uses too ({@code spring.data.redis.lettuce.cluster.refresh.*}).
     */
    @Override
    public Map<String, String> springProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.data.redis.cluster.nodes", addresses());
        properties.put("spring.data.redis.lettuce.cluster.refresh.adaptive", "true");
        properties.put("spring.data.redis.lettuce.cluster.refresh.period", TOPOLOGY_REFRESH.toSeconds() + "s");
        return Collections.unmodifiableMap(properties);
    }

    /** {@link RedisServer#commandStats()} summed over all nodes. */
    @Override
    public Map<String, Long> commandStats() {
        Map<String, Long> sum = new TreeMap<>();
        nodes.forEach(node -> node.commandStats().forEach((command, calls) -> sum.merge(command, calls, Long::sum)));
        return sum;
    }

    /** Calls of one command over all nodes; 0 if it never ran. */
    @Override
    public long commandCalls(String command) {
        return commandStats().getOrDefault(command, 0L);
    }

    /** {@code CONFIG RESETSTAT} on every node. */
    @Override
    public void resetStats() {
        nodes.forEach(RedisServer::resetStats);
    }

    /** {@code FLUSHALL} on every current master; refused on the shared cluster. */
    public void flushAll() {
        requireDedicated("flushAll()");
        masters().forEach(master -> master.admin().call(commands -> commands.flushall()));
    }

    /** The {@code CLUSTER INFO} text of one node, e.g. to check {@code cluster_state:ok}. */
    public String clusterInfo(RedisServer node) {
        return ClusterBootstrap.clusterInfo(node);
    }

    /**
     * {@code CLUSTER FAILOVER} on a replica, then waits until the whole cluster has settled on the new roles: on
     * every node's own {@code CLUSTER NODES} view the promoted node is a master owning the old master's slots and
     * the old master and the shard's other replicas are its replicas; those report {@code master_link_status:up}
     * towards it; and every node reports {@code cluster_state:ok} and sees all nodes connected. A test can read any
     * node's view right after this returns.
     */
    public void failover(RedisServer replica) {
        requireDedicated("failover()");
        if (!nodes.contains(replica)) {
            throw new IllegalArgumentException(replica + " is not a node of this cluster");
        }
        if (replica.admin().isMaster()) {
            throw new IllegalArgumentException("failover() needs a replica, but " + replica.address() + " is a master");
        }
        ClusterNodes before = ClusterNodes.parse(ClusterBootstrap.clusterNodes(replica));
        ClusterNodes.Entry promoted = before.myself();
        ClusterNodes.Entry oldMaster = before.byId(promoted.masterId)
                .orElseThrow(() -> new IllegalStateException(replica.address() + " does not know its master "
                        + promoted.masterId + ":\n" + before.entries()));
        // The old master and its other replicas end up as replicas of the promoted node.
        List<RedisServer> shard = nodes.stream()
                .filter(node -> !node.equals(replica))
                .filter(node -> node.address().equals(oldMaster.address)
                        || before.replicasOf(oldMaster.id).stream()
                                .map(id -> before.byId(id).orElseThrow().address)
                                .anyMatch(node.address()::equals))
                .collect(Collectors.toList());
        Settled settled = new Settled(promoted.id, replica, oldMaster.slots, shard);

        replica.admin().call(commands -> commands.clusterFailover(false));
        Await.until(
                FAILOVER_TIMEOUT,
                "every node to agree that " + replica.address() + " took over slots " + oldMaster.slots + " from "
                        + oldMaster.address + " with " + shard.size() + " replicas",
                settled::holds,
                settled::diagnostics);
        ClusterBootstrap.awaitHealthy(nodes);
    }

    /** The replica of {@code master} (with one replica per master), by its replication link. */
    public RedisServer replicaOf(RedisServer master) {
        return nodes.stream()
                .filter(node -> !node.equals(master))
                .filter(node -> Integer.toString(master.port())
                        .equals(RedisInfo.field(node.admin().info("replication"), "master_port")))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(master.address() + " has no replica"));
    }

    /**
     * Waits for the automatic failover after {@code master} was killed: {@code replica} is elected, and every other
     * live node reports {@code cluster_state:ok} and sees it as the master of {@code master}'s slots.
     */
    public void awaitTakeover(RedisServer master, RedisServer replica) {
        requireDedicated("awaitTakeover()");
        List<RedisServer> live =
                nodes.stream().filter(node -> !node.equals(master)).toList();
        Await.until(
                FAILOVER_TIMEOUT,
                replica.address() + " to take over the slots of " + master.address(),
                () -> live.stream().allMatch(node -> servesAsMaster(node, replica)),
                () -> live.stream()
                        .map(node -> "CLUSTER NODES of " + node.address() + ":\n"
                                + ClusterBootstrap.clusterNodes(node).trim())
                        .collect(Collectors.joining("\n")));
    }

    /** Whether {@code node} reports {@code cluster_state:ok} and sees {@code master} serving slots; a node busy with the
     * failover may time out a command, which is a reason to look again. */
    private static boolean servesAsMaster(RedisServer node, RedisServer master) {
        try {
            return "ok".equals(RedisInfo.field(ClusterBootstrap.clusterInfo(node), "cluster_state"))
                    && ClusterNodes.parse(ClusterBootstrap.clusterNodes(node)).entries().stream()
                            .anyMatch(entry -> entry.address.equals(master.address())
                                    && entry.isMaster()
                                    && !entry.failing()
                                    && !entry.slots.isEmpty());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Waits until every node reports {@code cluster_state:ok}, every replica is linked to its master and every node
     * sees all the others connected: after a killed node was {@link RedisServer#restart() restarted}, say.
     */
    public void awaitHealthy() {
        ClusterBootstrap.awaitHealthy(nodes);
    }

    /** The end state of a failover, checked on every node's own view; remembers why it does not hold yet. */
    private final class Settled {

        private final String promotedId;
        private final RedisServer promoted;
        private final List<String> slots;
        private final List<RedisServer> shardReplicas;
        private String lastMismatch = "(not checked yet)";

        Settled(String promotedId, RedisServer promoted, List<String> slots, List<RedisServer> shardReplicas) {
            this.promotedId = promotedId;
            this.promoted = promoted;
            this.slots = slots;
            this.shardReplicas = shardReplicas;
        }

        boolean holds() {
            try {
                lastMismatch = mismatch();
            } catch (RuntimeException e) {
                // A node busy with the failover may time out a command; that is a reason to look again.
                lastMismatch = "command failed: " + e;
            }
            return lastMismatch.isEmpty();
        }

        /** What does not match yet, or {@code ""}. */
        private String mismatch() {
            for (RedisServer node : nodes) {
                String state = RedisInfo.field(ClusterBootstrap.clusterInfo(node), "cluster_state");
                if (!"ok".equals(state)) {
                    return node.address() + " reports cluster_state:" + state;
                }
                ClusterNodes view = ClusterNodes.parse(ClusterBootstrap.clusterNodes(node));
                ClusterNodes.Entry master = view.byId(promotedId).orElse(null);
                if (master == null || !master.isMaster() || master.failing() || !master.slots.equals(slots)) {
                    return node.address() + " does not see " + promoted.address() + " as a master of " + slots + ": "
                            + master;
                }
                Set<String> replicas = view.replicasOf(promotedId);
                for (RedisServer replica : shardReplicas) {
                    String id = view.entries().stream()
                            .filter(entry -> entry.address.equals(replica.address()))
                            .map(entry -> entry.id)
                            .findFirst()
                            .orElse("?");
                    if (!replicas.contains(id)) {
                        return node.address() + " does not see " + replica.address() + " as a replica of "
                                + promoted.address();
                    }
                }
            }
            for (RedisServer replica : shardReplicas) {
                String replication = replica.admin().info("replication");
                if (!"slave".equals(RedisInfo.field(replication, "role"))
                        || !Integer.toString(promoted.port()).equals(RedisInfo.field(replication, "master_port"))
                        || !"up".equals(RedisInfo.field(replication, "master_link_status"))) {
                    return replica.address() + " is not linked up to " + promoted.address() + ":\n" + replication;
                }
            }
            return "";
        }

        String diagnostics() {
            StringBuilder views = new StringBuilder("Last mismatch: " + lastMismatch);
            for (RedisServer node : nodes) {
                views.append("\nCLUSTER NODES of ").append(node.address()).append(":\n");
                try {
                    views.append(ClusterBootstrap.clusterNodes(node).trim());
                } catch (RuntimeException e) {
                    views.append("(failed: ").append(e).append(")\n").append(node.diagnostics());
                }
            }
            return views.toString();
        }
    }

    @Override
    public void close() {
        factories.destroyAll();
        nodes.forEach(RedisServer::close);
    }

    @Override
    public String toString() {
        return "RedisCluster[" + addresses() + "]";
    }

    RedisCluster markShared() {
        shared = true;
        nodes.forEach(RedisServer::markShared);
        return this;
    }

    private String addresses() {
        return nodes.stream().map(RedisServer::address).collect(Collectors.joining(","));
    }

    private void requireDedicated(String operation) {
        if (shared) {
            throw new IllegalStateException(operation + " on the shared Redis Cluster would break other tests; "
                    + "annotate the parameter with @Dedicated to get a cluster of its own");
        }
    }
}

package dev.idempotency.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis Cluster of three masters, optionally with replicas, made of {@code redis-server} processes on
 * 127.0.0.1. Needs the {@link RedisProvider#PROCESS process} provider; other providers fail with
 * {@link UnsupportedOperationException}. Closing it destroys its connection factories and every node.
 */
public final class RedisCluster implements AutoCloseable {

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
        if (replicasPerMaster < 0 || replicasPerMaster > 2) {
            throw new IllegalArgumentException("replicasPerMaster must be 0, 1 or 2, not " + replicasPerMaster);
        }
        Launcher.requireProcessProvider("RedisCluster");
        RedisCluster cluster = new RedisCluster(ClusterBootstrap.startNodes(replicasPerMaster));
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
                        + " replicas) at " + cluster.addresses());
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

    /** A started cluster connection factory with a 2 s command timeout; destroyed when the cluster closes. */
    public LettuceConnectionFactory newConnectionFactory() {
        return newConnectionFactory(RedisServer.DEFAULT_COMMAND_TIMEOUT);
    }

    /** A started cluster connection factory (topology refreshed every second) with the given timeout. */
    public LettuceConnectionFactory newConnectionFactory(Duration commandTimeout) {
        List<String> seeds = nodes.stream().map(RedisServer::address).collect(Collectors.toList());
        return factories.cluster(seeds, commandTimeout);
    }

    /** {@link RedisServer#commandStats()} summed over all nodes. */
    public Map<String, Long> commandStats() {
        Map<String, Long> sum = new TreeMap<>();
        nodes.forEach(node -> node.commandStats().forEach((command, calls) -> sum.merge(command, calls, Long::sum)));
        return sum;
    }

    /** Calls of one command over all nodes; 0 if it never ran. */
    public long commandCalls(String command) {
        return commandStats().getOrDefault(command, 0L);
    }

    /** {@code CONFIG RESETSTAT} on every node. */
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

    /** {@code CLUSTER FAILOVER} on a replica; waits until it is a master and the cluster is healthy again. */
    public void failover(RedisServer replica) {
        requireDedicated("failover()");
        if (!nodes.contains(replica)) {
            throw new IllegalArgumentException(replica + " is not a node of this cluster");
        }
        if (replica.admin().isMaster()) {
            throw new IllegalArgumentException("failover() needs a replica, but " + replica.address() + " is a master");
        }
        replica.admin().call(commands -> commands.clusterFailover(false));
        Await.until(
                ClusterBootstrap.READY_TIMEOUT,
                replica.address() + " to become a master",
                replica.admin()::isMaster,
                replica::diagnostics);
        ClusterBootstrap.awaitHealthy(nodes);
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

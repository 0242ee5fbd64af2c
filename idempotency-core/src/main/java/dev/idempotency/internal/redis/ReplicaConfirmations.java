package dev.idempotency.internal.redis;

import dev.idempotency.internal.Durations;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.spi.Futures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * Writes that replicas must acknowledge before the caller goes on (wait-for-replicas). Redis {@code WAIT} covers
 * only the writes made on its own connection, so a write and its {@code WAIT} travel together on one connection to
 * the node that owns the key, which carries nothing else meanwhile: on the application's shared connection one
 * lagging replica would stall every other command, and on Redis Cluster another connection's offset confirms nothing
 * about this write. Connections are pooled per node ({@link NodeConnections}, up to {@value #MAX_CONNECTIONS} each),
 * so a shard whose replicas lag holds up only its own keys. On Cluster the owner comes from the client's view of the
 * slots; a write that meets {@code MOVED} or {@code READONLY} (the slot moved, or a failover made the owner a
 * replica) refreshes that view and goes to the new owner once, and one that meets {@code ASK} (its slot is being
 * migrated and the key is not on the old owner) goes with {@code ASKING} to the node that imports the slot, whose
 * replicas then confirm it.
 */
public final class ReplicaConfirmations implements AutoCloseable {

    static final int MAX_CONNECTIONS = 16;

    /** What a confirmed write answered, and how many replicas acknowledged it. */
    public record Confirmed<T>(T result, long acknowledged) {}

    private final RedisGateway redis;
    private final int replicas;
    private final Duration timeout;
    private final Scheduling scheduling;
    private final Map<String, NodeConnections> nodes = new ConcurrentHashMap<>();
    private final List<StatefulConnection<byte[], byte[]>> opened = new CopyOnWriteArrayList<>();
    private final @Nullable StatefulRedisClusterConnection<byte[], byte[]>[] clusterConnections;

    /**
     * @param replicas how many replicas must acknowledge each write
     * @param timeout how long {@code WAIT} waits for them
     */
    @SuppressWarnings("unchecked")
    public ReplicaConfirmations(RedisGateway redis, int replicas, Duration timeout, Scheduling scheduling) {
        Assert.isTrue(replicas > 0, "replicas must be positive");
        Assert.isTrue(Durations.isPositive(timeout), "timeout must be positive");
        this.redis = redis;
        this.replicas = replicas;
        this.timeout = timeout;
        this.scheduling = scheduling;
        this.clusterConnections = new StatefulRedisClusterConnection[MAX_CONNECTIONS];
    }

    /** How many replicas must acknowledge each write. */
    public int replicas() {
        return replicas;
    }

    public Duration timeout() {
        return timeout;
    }

    /** Runs {@code write} for {@code key} on a connection to the key's owner, then {@code WAIT}s on that connection. */
    public <T> CompletableFuture<Confirmed<T>> writeAndWait(
            String kind, byte[] key, Function<RedisClusterAsyncCommands<byte[], byte[]>, CompletionStage<T>> write) {
        return onOwner(kind, key, write).exceptionallyCompose(failure -> {
            RedisClusterClient cluster = cluster();
            String error = errorText(failure);
            if (cluster == null) {
                return CompletableFuture.failedFuture(failure);
            }
            if (error.startsWith("ASK ")) {
                // "ASK <slot> <host>:<port>"; an IPv6 host has colons of its own, the port follows the last one.
                String node = error.substring(error.lastIndexOf(' ') + 1);
                int colon = node.lastIndexOf(':');
                return onNode(
                        clusterNode(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1))),
                        kind,
                        commands -> commands.asking().thenCompose(asking -> write.apply(commands)));
            }
            if (!error.startsWith("MOVED ") && !error.startsWith("READONLY")) {
                return CompletableFuture.failedFuture(failure);
            }
            return redis.timed("refresh_slots", cluster::refreshPartitionsAsync)
                    .thenCompose(refreshed -> onOwner(kind, key, write));
        });
    }

    private <T> CompletableFuture<Confirmed<T>> onOwner(
            String kind, byte[] key, Function<RedisClusterAsyncCommands<byte[], byte[]>, CompletionStage<T>> write) {
        NodeConnections owner;
        try {
            owner = owner(key);
        } catch (RuntimeException noOwner) {
            return CompletableFuture.failedFuture(RedisGateway.unavailable(noOwner));
        }
        return onNode(owner, kind, write);
    }

    private <T> CompletableFuture<Confirmed<T>> onNode(
            NodeConnections owner,
            String kind,
            Function<RedisClusterAsyncCommands<byte[], byte[]>, CompletionStage<T>> write) {
        long millis = Math.max(1, timeout.toMillis());
        return owner.borrow()
                .thenCompose(connection -> redis.timed(kind, () -> write.apply(connection.async()))
                        .thenCompose(result -> redis.timed(
                                        "wait", () -> connection.async().waitForReplication(replicas, millis))
                                .thenApply(acknowledged -> new Confirmed<>(result, acknowledged)))
                        .whenComplete((confirmed, failure) -> owner.giveBack(connection)));
    }

    /** The pool of the node that owns {@code key}: on Cluster the master of its slot, else the one server. */
    private NodeConnections owner(byte[] key) {
        RedisClusterClient cluster = cluster();
        if (cluster == null) {
            return nodes.computeIfAbsent("redis", node -> pool(node, index -> standalone()));
        }
        RedisClusterNode master = cluster.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
        if (master == null) {
            throw new IllegalStateException("No master serves slot " + SlotHash.getSlot(key) + " in the cluster view");
        }
        return clusterNode(master.getUri().getHost(), master.getUri().getPort());
    }

    private NodeConnections clusterNode(String host, int port) {
        return nodes.computeIfAbsent(
                host + ":" + port,
                node -> pool(
                        node,
                        index -> clusterConnection(index)
                                .thenCompose(connection -> connection.getConnectionAsync(host, port))));
    }

    private NodeConnections pool(
            String node, IntFunction<CompletableFuture<StatefulRedisConnection<byte[], byte[]>>> open) {
        return new NodeConnections(node, MAX_CONNECTIONS, timeout, scheduling, open);
    }

    private CompletableFuture<StatefulRedisConnection<byte[], byte[]>> standalone() {
        return redis.offload(() -> {
            if (!(redis.connectionFactory().getRequiredNativeClient() instanceof RedisClient client)) {
                throw new IllegalStateException("wait-for-replicas does not support "
                        + redis.connectionFactory()
                                .getRequiredNativeClient()
                                .getClass()
                                .getName());
            }
            StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
            opened.add(connection);
            return connection;
        });
    }

    /**
     * The {@code index}th dedicated cluster connection: a pool's {@code n}th connection to a node is the node
     * connection of the {@code n}th cluster connection, so no two borrowers share one.
     */
    private CompletableFuture<StatefulRedisClusterConnection<byte[], byte[]>> clusterConnection(int index) {
        return redis.offload(() -> {
            synchronized (clusterConnections) {
                StatefulRedisClusterConnection<byte[], byte[]> connection = clusterConnections[index];
                if (connection == null || RedisGateway.isClosed(connection)) {
                    RedisClusterClient cluster = cluster();
                    if (cluster == null) {
                        throw new IllegalStateException("not a cluster");
                    }
                    connection = cluster.connect(ByteArrayCodec.INSTANCE);
                    clusterConnections[index] = connection;
                    opened.add(connection);
                }
                return connection;
            }
        });
    }

    private @Nullable RedisClusterClient cluster() {
        return redis.connectionFactory().getRequiredNativeClient() instanceof RedisClusterClient cluster
                ? cluster
                : null;
    }

    /**
     * The Redis error a write failed with ({@code MOVED 42 host:port}, {@code ASK 42 host:port}, {@code READONLY ...}),
     * found in the failure or, when the gateway wrapped it, its cause.
     */
    private static String errorText(Throwable failure) {
        for (Throwable error = Futures.unwrap(failure); error != null; error = error.getCause()) {
            String message = String.valueOf(error.getMessage());
            if (message.startsWith("MOVED ") || message.startsWith("ASK ") || message.startsWith("READONLY")) {
                return message;
            }
        }
        return "";
    }

    @Override
    public void close() {
        opened.forEach(StatefulConnection::close);
        opened.clear();
    }
}

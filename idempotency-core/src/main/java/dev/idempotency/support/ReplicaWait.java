package dev.idempotency.support;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClusterConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Redis {@code WAIT} on the connection that made a write: it counts the replicas that acknowledged every earlier write
 * of that connection. Lettuce shares one connection per node, so the claim just written is among them. In a cluster
 * the {@code WAIT} goes to the master that owns the key, and a topology gone stale after a failover is refreshed.
 */
final class ReplicaWait {

    private ReplicaWait() {}

    static long await(
            RedisConnection connection,
            RedisConnectionFactory connectionFactory,
            byte[] key,
            int replicas,
            Duration timeout) {
        long millis = Math.max(1, timeout.toMillis());
        try {
            if (connection instanceof LettuceClusterConnection cluster) {
                return inCluster(cluster, connectionFactory, key, replicas, millis);
            }
            return standalone(connection, replicas, millis);
        } catch (RedisException ex) {
            // Lettuce's own exceptions escape Spring's translation here: make them a store failure like any other.
            throw new RedisSystemException("WAIT failed: " + ex.getMessage(), ex);
        }
    }

    private static long inCluster(
            LettuceClusterConnection cluster,
            RedisConnectionFactory connectionFactory,
            byte[] key,
            int replicas,
            long millis) {
        try {
            return onOwningNode(cluster, key, replicas, millis);
        } catch (RedisCommandExecutionException ex) {
            if (!String.valueOf(ex.getMessage()).contains("replica")) {
                throw ex;
            }
            // A failover made the master we knew a replica; the claim itself followed the MOVED redirect. Refresh
            // the topology so WAIT reaches the new master, then ask again.
            if (connectionFactory instanceof LettuceConnectionFactory lettuce
                    && lettuce.getNativeClient() instanceof RedisClusterClient client) {
                client.refreshPartitions();
            }
            return onOwningNode(cluster, key, replicas, millis);
        }
    }

    private static long standalone(RedisConnection connection, int replicas, long millis) {
        if (connection instanceof LettuceConnection lettuce) {
            Long acknowledged = (Long) lettuce.execute(
                    "WAIT",
                    new IntegerOutput<>(ByteArrayCodec.INSTANCE),
                    Integer.toString(replicas).getBytes(StandardCharsets.US_ASCII),
                    Long.toString(millis).getBytes(StandardCharsets.US_ASCII));
            return acknowledged == null ? 0 : acknowledged;
        }
        throw new IllegalStateException("wait-for-replicas needs Lettuce; found "
                + connection.getClass().getName());
    }

    @SuppressWarnings("unchecked")
    private static long onOwningNode(LettuceClusterConnection cluster, byte[] key, int replicas, long millis) {
        if (!(cluster.getNativeConnection() instanceof RedisAdvancedClusterAsyncCommands<?, ?> commands)) {
            throw new IllegalStateException("No Lettuce cluster connection to send WAIT on");
        }
        StatefulRedisClusterConnection<byte[], byte[]> stateful =
                (StatefulRedisClusterConnection<byte[], byte[]>) commands.getStatefulConnection();
        RedisClusterNode owner = stateful.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
        return stateful.getConnection(owner.getNodeId()).sync().waitForReplication(replicas, millis);
    }
}

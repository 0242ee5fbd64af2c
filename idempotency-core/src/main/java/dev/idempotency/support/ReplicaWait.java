package dev.idempotency.support;

import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceClusterConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;

/**
 * Redis {@code WAIT} on the connection that made a write: it counts the replicas that acknowledged every earlier write
 * of that connection. Lettuce shares one connection per node, so the claim just written is among them. In a cluster
 * the {@code WAIT} goes to the master that owns the key.
 */
final class ReplicaWait {

    private ReplicaWait() {}

    static long await(RedisConnection connection, byte[] key, int replicas, Duration timeout) {
        long millis = Math.max(1, timeout.toMillis());
        if (connection instanceof LettuceClusterConnection cluster) {
            return onOwningNode(cluster, key, replicas, millis);
        }
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

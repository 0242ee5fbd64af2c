package dev.idempotency.internal.redis;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.Durations;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.spi.Futures;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
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
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * Writes that replicas must acknowledge before the caller goes on (wait-for-replicas): a write and its Redis
 * {@code WAIT} travel together on a dedicated connection that carries nothing else. Redis holds a connection for the
 * whole {@code WAIT}, so on the application's shared connection one lagging replica would stall every other command
 * of the application. Connections are opened on demand, up to {@value #MAX_CONNECTIONS}, and reused; a write that
 * finds them all busy waits for one at most the {@code WAIT} timeout.
 */
public final class ReplicaConfirmations implements AutoCloseable {

    static final int MAX_CONNECTIONS = 16;

    /** What a confirmed write answered, and how many replicas acknowledged it. */
    public record Confirmed<T>(T result, long acknowledged) {}

    private final RedisGateway redis;
    private final int replicas;
    private final Duration timeout;
    private final Scheduling scheduling;
    private final ArrayDeque<Dedicated> idle = new ArrayDeque<>();
    private final ArrayDeque<CompletableFuture<Dedicated>> waiting = new ArrayDeque<>();
    private final List<Dedicated> opened = new CopyOnWriteArrayList<>();
    private int count;

    /**
     * @param replicas how many replicas must acknowledge each write
     * @param timeout how long {@code WAIT} waits for them
     */
    public ReplicaConfirmations(RedisGateway redis, int replicas, Duration timeout, Scheduling scheduling) {
        Assert.isTrue(replicas > 0, "replicas must be positive");
        Assert.isTrue(Durations.isPositive(timeout), "timeout must be positive");
        this.redis = redis;
        this.replicas = replicas;
        this.timeout = timeout;
        this.scheduling = scheduling;
    }

    /** How many replicas must acknowledge each write. */
    public int replicas() {
        return replicas;
    }

    public Duration timeout() {
        return timeout;
    }

    /** Runs {@code write} for {@code key} on a dedicated connection, then {@code WAIT}s on that same connection. */
    public <T> CompletableFuture<Confirmed<T>> writeAndWait(
            String kind, byte[] key, Function<RedisClusterAsyncCommands<byte[], byte[]>, CompletionStage<T>> write) {
        return borrow().thenCompose(connection -> redis.timed(kind, () -> write.apply(connection.commands()))
                .thenCompose(result -> redis.timed("wait", () -> connection.await(key, replicas, timeout))
                        .thenApply(acknowledged -> new Confirmed<>(result, acknowledged)))
                .whenComplete((confirmed, failure) -> giveBack(connection)));
    }

    private CompletableFuture<Dedicated> borrow() {
        CompletableFuture<Dedicated> turn;
        synchronized (this) {
            Dedicated free = idle.poll();
            while (free != null && free.isClosed()) { // its connection factory was stopped: open a new one
                opened.remove(free);
                count--;
                free = idle.poll();
            }
            if (free != null) {
                return CompletableFuture.completedFuture(free);
            }
            if (count < MAX_CONNECTIONS) {
                count++;
                return CompletableFuture.supplyAsync(this::open, Connector.CONNECTING)
                        .whenComplete((connection, failure) -> opened(failure == null))
                        .exceptionallyCompose(
                                failure -> CompletableFuture.failedFuture(RedisGateway.unavailable(failure)));
            }
            turn = new CompletableFuture<>();
            waiting.add(turn);
        }
        scheduling.delay(timeout).thenRun(() -> {
            if (turn.completeExceptionally(new IdempotencyStoreUnavailableException(
                    "All " + MAX_CONNECTIONS + " connections for replica acknowledgements stayed busy for "
                            + timeout.toMillis() + " ms",
                    RedisGateway.STORE_RETRY_AFTER))) {
                synchronized (this) {
                    waiting.remove(turn);
                }
            }
        });
        return turn;
    }

    private synchronized void opened(boolean success) {
        if (!success) {
            count--;
        }
    }

    private void giveBack(Dedicated connection) {
        while (true) {
            CompletableFuture<Dedicated> next;
            synchronized (this) {
                next = waiting.poll();
                if (next == null) {
                    idle.push(connection);
                    return;
                }
            }
            if (next.complete(connection)) { // outside the lock: the next write is sent from here
                return;
            }
        }
    }

    private Dedicated open() {
        AbstractRedisClient client = redis.connectionFactory().getRequiredNativeClient();
        Dedicated connection;
        if (client instanceof RedisClusterClient cluster) {
            connection = new Dedicated(cluster.connect(ByteArrayCodec.INSTANCE), cluster);
        } else if (client instanceof RedisClient standalone) {
            connection = new Dedicated(standalone.connect(ByteArrayCodec.INSTANCE), null);
        } else {
            throw new IllegalStateException(
                    "wait-for-replicas does not support " + client.getClass().getName());
        }
        opened.add(connection);
        return connection;
    }

    @Override
    public void close() {
        opened.forEach(connection -> connection.stateful.close());
        opened.clear();
    }

    /** One connection of the pool, standalone (also behind Sentinel) or cluster. */
    private record Dedicated(
            StatefulConnection<byte[], byte[]> stateful,
            @Nullable RedisClusterClient cluster) {

        boolean isClosed() {
            return stateful instanceof RedisChannelHandler<?, ?> handler && handler.isClosed();
        }

        @SuppressWarnings("unchecked")
        RedisClusterAsyncCommands<byte[], byte[]> commands() {
            return stateful instanceof StatefulRedisClusterConnection<?, ?> clustered
                    ? ((StatefulRedisClusterConnection<byte[], byte[]>) clustered).async()
                    : ((StatefulRedisConnection<byte[], byte[]>) stateful).async();
        }

        /** {@code WAIT} on the connection that made the write: in a cluster, the one to the key's master. */
        @SuppressWarnings("unchecked")
        CompletionStage<Long> await(byte[] key, int replicas, Duration timeout) {
            long millis = Math.max(1, timeout.toMillis());
            if (!(stateful instanceof StatefulRedisClusterConnection<?, ?> clustered)) {
                return ((StatefulRedisConnection<byte[], byte[]>) stateful)
                        .async()
                        .waitForReplication(replicas, millis);
            }
            StatefulRedisClusterConnection<byte[], byte[]> connection =
                    (StatefulRedisClusterConnection<byte[], byte[]>) clustered;
            return onOwner(connection, key, replicas, millis).exceptionallyCompose(failure -> {
                if (!String.valueOf(Futures.unwrap(failure).getMessage()).contains("replica")) {
                    return CompletableFuture.failedFuture(failure);
                }
                // A failover made the master we knew a replica; the write itself followed the MOVED redirect.
                // Refresh the topology so that WAIT reaches the new master, then ask again.
                RedisClusterClient client = cluster;
                if (client == null) {
                    return CompletableFuture.failedFuture(failure);
                }
                return client.refreshPartitionsAsync()
                        .toCompletableFuture()
                        .thenCompose(refreshed -> onOwner(connection, key, replicas, millis));
            });
        }

        private static CompletableFuture<Long> onOwner(
                StatefulRedisClusterConnection<byte[], byte[]> connection, byte[] key, int replicas, long millis) {
            RedisClusterNode owner = connection.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
            return connection
                    .getConnectionAsync(owner.getNodeId())
                    .thenCompose(node -> node.async().waitForReplication(replicas, millis))
                    .toCompletableFuture();
        }
    }
}

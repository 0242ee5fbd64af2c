package dev.idempotency.internal.redis;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.Scheduling;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * The connections to one Redis node that carry confirmed writes, each lent to one write and its {@code WAIT} at a
 * time: opened on demand up to a bound and reused. A write that finds them all busy waits for one, at most the
 * {@code WAIT} timeout. One pool per node, so that a node whose replicas lag holds up only the writes it owns.
 */
final class NodeConnections {

    private final String node;
    private final int max;
    private final Duration maxQueueing;
    private final Scheduling scheduling;
    private final IntFunction<CompletableFuture<StatefulRedisConnection<byte[], byte[]>>> open;
    private final ArrayDeque<StatefulRedisConnection<byte[], byte[]>> idle = new ArrayDeque<>();
    private final ArrayDeque<CompletableFuture<StatefulRedisConnection<byte[], byte[]>>> waiting = new ArrayDeque<>();
    private int count;

    /**
     * @param node the node's address, for messages
     * @param max how many connections to the node may be open
     * @param maxQueueing how long a write waits for a free connection
     * @param open opens the {@code n}th connection to the node (from 0)
     */
    NodeConnections(
            String node,
            int max,
            Duration maxQueueing,
            Scheduling scheduling,
            IntFunction<CompletableFuture<StatefulRedisConnection<byte[], byte[]>>> open) {
        this.node = node;
        this.max = max;
        this.maxQueueing = maxQueueing;
        this.scheduling = scheduling;
        this.open = open;
    }

    /** A connection for one write and its {@code WAIT}; hand it back with {@link #giveBack}. */
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> borrow() {
        CompletableFuture<StatefulRedisConnection<byte[], byte[]>> turn;
        synchronized (this) {
            StatefulRedisConnection<byte[], byte[]> free = idle.poll();
            while (free != null
                    && RedisGateway.isClosed(free)) { // its connection factory was stopped: open another one
                count--;
                free = idle.poll();
            }
            if (free != null) {
                return CompletableFuture.completedFuture(free);
            }
            if (count < max) {
                int index = count++;
                return open.apply(index).whenComplete((connection, failure) -> {
                    if (failure != null) {
                        forget();
                    }
                });
            }
            turn = new CompletableFuture<>();
            waiting.add(turn);
        }
        scheduling.delay(maxQueueing).thenRun(() -> {
            if (turn.completeExceptionally(new IdempotencyStoreUnavailableException(
                    "All " + max + " connections to " + node + " for replica acknowledgements stayed busy for "
                            + maxQueueing.toMillis() + " ms",
                    RedisGateway.STORE_RETRY_AFTER))) {
                synchronized (this) {
                    waiting.remove(turn);
                }
            }
        });
        return turn;
    }

    /** Lends {@code connection} to the next waiting write, or keeps it for the next one. */
    void giveBack(StatefulRedisConnection<byte[], byte[]> connection) {
        while (true) {
            CompletableFuture<StatefulRedisConnection<byte[], byte[]>> next;
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

    private synchronized void forget() {
        count--;
    }
}

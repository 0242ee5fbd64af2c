package dev.idempotency.internal.lock;

import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.redis.RedisGateway;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * Wakes callers waiting for a busy lock as soon as its holder releases it. Release scripts {@code PUBLISH} the lock
 * key; one subscription per application, opened on the first wait, bumps a per-key generation and completes the
 * futures of that key's waiters. Messages are handled on Lettuce's I/O thread, so no thread is started per message.
 * Waiters also wake by timeout, so a lost message or a crashed holder (whose lock just expires) costs at most the
 * fallback interval. A subscription that cannot be opened fails the wait like any Redis failure, and is tried again
 * by the next wait.
 */
final class LockReleaseSignals implements AutoCloseable {

    private final RedisGateway redis;
    private final byte[] channel;
    private final Scheduling scheduling;
    private final ConcurrentHashMap<String, Signal> signals = new ConcurrentHashMap<>();
    private @Nullable CompletableFuture<RedisConnection> subscription;

    LockReleaseSignals(RedisGateway redis, String channel, Scheduling scheduling) {
        this.redis = redis;
        this.channel = channel.getBytes(StandardCharsets.UTF_8);
        this.scheduling = scheduling;
    }

    /** Completes once the subscription is open; fails (store unavailable) when it cannot be opened. */
    synchronized CompletableFuture<?> subscribed() {
        CompletableFuture<RedisConnection> current = subscription;
        if (current == null || current.isCompletedExceptionally() || isGone(current)) {
            current = redis.offload(this::subscribe);
            subscription = current;
        }
        return current;
    }

    /** A subscription whose connection was closed, e.g. because the connection factory was stopped and started. */
    private static boolean isGone(CompletableFuture<RedisConnection> subscription) {
        RedisConnection connection = subscription.getNow(null);
        return connection != null && (connection.isClosed() || !connection.isSubscribed());
    }

    private RedisConnection subscribe() {
        RedisConnection connection = redis.connectionFactory().getConnection();
        try {
            connection.subscribe(
                    (message, pattern) -> onRelease(new String(message.getBody(), StandardCharsets.UTF_8)), channel);
            return connection;
        } catch (RuntimeException ex) {
            connection.close();
            throw ex;
        }
    }

    /** Registers interest in {@code key}; call before trying the lock so that no release slips between. */
    Signal register(String key) {
        return signals.compute(key, (k, signal) -> {
            Signal current = signal == null ? new Signal(scheduling) : signal;
            current.waiters++;
            return current;
        });
    }

    void unregister(String key) {
        signals.computeIfPresent(key, (k, signal) -> --signal.waiters == 0 ? null : signal);
    }

    private void onRelease(String key) {
        Signal signal = signals.get(key);
        if (signal != null) {
            signal.bump();
        }
    }

    @Override
    public synchronized void close() {
        CompletableFuture<RedisConnection> current = subscription;
        if (current != null) {
            current.thenAccept(RedisConnection::close);
        }
    }

    /** A generation counter per lock key; waiting means waiting for it to move. */
    static final class Signal {

        private final Scheduling scheduling;
        private final List<CompletableFuture<Void>> waiting = new ArrayList<>();
        private long generation;
        private int waiters;

        Signal(Scheduling scheduling) {
            this.scheduling = scheduling;
        }

        synchronized long generation() {
            return generation;
        }

        /** Completes when the generation differs from {@code seen}, or after {@code max} at the latest. */
        CompletableFuture<Void> changeAfter(long seen, Duration max) {
            CompletableFuture<Void> change = new CompletableFuture<>();
            synchronized (this) {
                if (generation != seen) {
                    return CompletableFuture.completedFuture(null);
                }
                waiting.add(change);
            }
            scheduling.delay(max).thenRun(() -> {
                synchronized (this) {
                    waiting.remove(change);
                }
                change.complete(null);
            });
            return change;
        }

        void bump() {
            List<CompletableFuture<Void>> woken;
            synchronized (this) {
                generation++;
                woken = new ArrayList<>(waiting);
                waiting.clear();
            }
            woken.forEach(change -> change.complete(null));
        }
    }
}

package dev.idempotency.lock;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Wakes threads waiting for a busy lock as soon as its holder releases it. Release scripts {@code PUBLISH} the lock key;
 * one subscription per application, opened on the first wait, bumps a per-key generation. Waiters also wake by
 * timeout, so a lost message or a crashed holder (whose lock just expires) costs at most the fallback interval.
 */
final class LockReleaseSignals implements AutoCloseable {

    private final RedisConnectionFactory connectionFactory;
    private final String channel;
    private final ConcurrentHashMap<String, Signal> signals = new ConcurrentHashMap<>();
    private volatile @Nullable RedisMessageListenerContainer container;

    LockReleaseSignals(RedisConnectionFactory connectionFactory, String channel) {
        this.connectionFactory = connectionFactory;
        this.channel = channel;
    }

    /** Registers interest in {@code key}; call before trying the lock so that no release slips between. */
    Signal register(String key) {
        ensureSubscribed();
        return signals.compute(key, (k, signal) -> {
            Signal current = signal == null ? new Signal() : signal;
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

    private void ensureSubscribed() {
        if (container != null) {
            return;
        }
        synchronized (this) {
            if (container == null) {
                RedisMessageListenerContainer started = new RedisMessageListenerContainer();
                started.setConnectionFactory(connectionFactory);
                started.addMessageListener(
                        (message, pattern) -> onRelease(new String(message.getBody(), StandardCharsets.UTF_8)),
                        new ChannelTopic(channel));
                started.afterPropertiesSet();
                started.start();
                container = started;
            }
        }
    }

    @Override
    public void close() {
        RedisMessageListenerContainer current = container;
        if (current != null) {
            current.stop();
            try {
                current.destroy();
            } catch (Exception ex) {
                // closing at shutdown: nothing left to protect
            }
        }
    }

    /** A generation counter per lock key; waiting means waiting for it to move. */
    static final class Signal {

        private long generation;
        private int waiters;

        synchronized long generation() {
            return generation;
        }

        synchronized void bump() {
            generation++;
            notifyAll();
        }

        /** Waits until the generation differs from {@code seen} or {@code millis} pass. */
        synchronized void awaitChange(long seen, long millis) throws InterruptedException {
            long deadline = System.nanoTime() + millis * 1_000_000;
            long left = millis;
            while (generation == seen && left > 0) {
                wait(left);
                left = (deadline - System.nanoTime()) / 1_000_000;
            }
        }
    }
}

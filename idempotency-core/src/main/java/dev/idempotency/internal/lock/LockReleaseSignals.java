package dev.idempotency.internal.lock;

import dev.idempotency.internal.Scheduling;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wakes callers waiting for a busy lock as soon as its holder releases it: the {@link LockStore} reports each release
 * (Redis publishes it; the in-memory store calls at once), which bumps a per-key generation and completes the futures
 * of that key's waiters. Waiters also wake by timeout, so a lost message or a crashed holder (whose lock just expires)
 * costs at most the fallback interval. A feed of releases that cannot be opened fails the wait like any store failure,
 * and is tried again by the next wait.
 */
final class LockReleaseSignals {

    private final LockStore store;
    private final Scheduling scheduling;
    private final ConcurrentHashMap<String, Signal> signals = new ConcurrentHashMap<>();

    LockReleaseSignals(LockStore store, Scheduling scheduling) {
        this.store = store;
        this.scheduling = scheduling;
    }

    /** Completes once releases are heard; fails (store unavailable) when they cannot be. */
    CompletableFuture<?> subscribed() {
        return store.releases(this::onRelease);
    }

    /** Registers interest in {@code key}; call before trying the lock so that no release slips between. */
    Signal register(String key) {
        return signals.compute(key, (k, signal) -> {
            Signal current = signal == null ? new Signal(scheduling) : signal;
            current.waiters++;
            return current;
        });
    }

    /** How many callers wait for {@code key}'s release. */
    int waiters(String key) {
        Signal signal = signals.get(key);
        return signal == null ? 0 : signal.waiters;
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

    /** A generation counter per lock key; waiting means waiting for it to move. */
    static final class Signal {

        private final Scheduling scheduling;
        private final List<CompletableFuture<Void>> waiting = new ArrayList<>();
        private long generation;

        /** Changed only inside the map's {@code compute}, which serializes the changes; read by {@link #waiters}. */
        private volatile int waiters;

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

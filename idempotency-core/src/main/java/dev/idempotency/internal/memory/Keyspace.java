package dev.idempotency.internal.memory;

import dev.idempotency.spi.StoreListener;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Keys and their values in this JVM, each with an optional expiry: what one Redis database is to the Redis stores.
 * Every change of a key is atomic ({@link ConcurrentHashMap#compute}): the in-memory stores run their scripts as
 * functions of the key's live value. An expired value reads as absent; {@link #purgeExpired} frees its memory.
 */
public final class Keyspace {

    private static final long NEVER = Long.MAX_VALUE;

    private final Map<String, Value> values = new ConcurrentHashMap<>();
    private final StoreListener listener;

    /** @param listener told about every operation, as the Redis stores tell it about every Redis call */
    public Keyspace(StoreListener listener) {
        this.listener = listener;
    }

    /** What a key holds, and until when ({@link System#nanoTime()}; {@code Long.MAX_VALUE} for no expiry). */
    public record Value(byte[] bytes, long expiresAt) {

        /** {@code bytes} for {@code ttl} from now. */
        public static Value expiringIn(byte[] bytes, Duration ttl) {
            return new Value(bytes, System.nanoTime() + Math.max(1, ttl.toNanos()));
        }

        /** Other bytes, the same expiry (Redis's {@code KEEPTTL}). */
        public Value withBytes(byte[] other) {
            return new Value(other, expiresAt);
        }

        /** The same bytes for {@code ttl} from now (Redis's {@code PEXPIRE}). */
        public Value expiringIn(Duration ttl) {
            return expiringIn(bytes, ttl);
        }

        /** Milliseconds left, at least 1; -1 without expiry (Redis's {@code PTTL}). */
        public long millisLeft() {
            return expiresAt == NEVER
                    ? -1
                    : Math.max(
                            1, Duration.ofNanos(expiresAt - System.nanoTime()).toMillis());
        }

        boolean isLive(long now) {
            return expiresAt == NEVER || expiresAt - now > 0;
        }
    }

    /**
     * What an operation leaves in a key, and what it answers.
     *
     * @param next the key's new value; {@code null} deletes it
     * @param answer what the operation returns
     */
    public record Change<R>(@Nullable Value next, R answer) {}

    /**
     * Runs {@code operation} on the live value of {@code key} ({@code null} when absent or expired) and stores what it
     * leaves, atomically for that key.
     *
     * @param kind what the operation does, for the listener ({@code claim}, {@code consume}, {@code acquire}, ...)
     */
    public <R> R change(String kind, String key, Function<@Nullable Value, Change<R>> operation) {
        long start = System.nanoTime();
        Object[] answer = new Object[1];
        values.compute(key, (k, stored) -> {
            Change<R> change = operation.apply(stored != null && stored.isLive(start) ? stored : null);
            answer[0] = change.answer();
            return change.next();
        });
        listener.onCall(StoreListener.IN_MEMORY, kind, System.nanoTime() - start, false);
        @SuppressWarnings("unchecked")
        R result = (R) answer[0];
        return result;
    }

    /** The live value of {@code key}, or {@code null}. */
    public @Nullable Value get(String key) {
        Value value = values.get(key);
        return value != null && value.isLive(System.nanoTime()) ? value : null;
    }

    /** Deletes {@code key}; whether it held a live value. */
    public boolean delete(String kind, String key) {
        return change(kind, key, live -> new Change<>(null, live != null));
    }

    /** Deletes the values whose time is up; the number deleted. */
    public int purgeExpired() {
        long now = System.nanoTime();
        int[] purged = new int[1];
        // Removes an entry only if it still holds the expired value it was tested with (a concurrent write wins).
        values.entrySet().removeIf(entry -> {
            boolean expired = !entry.getValue().isLive(now);
            purged[0] += expired ? 1 : 0;
            return expired;
        });
        return purged[0];
    }

    /** The number of keys held, expired ones not yet purged included. */
    public int size() {
        return values.size();
    }

    /** Sets {@code key} without expiry, whatever it held (Redis's {@code SET}): for tests that play another owner. */
    public void set(String key, byte[] bytes) {
        values.put(key, new Value(bytes, NEVER));
    }
}

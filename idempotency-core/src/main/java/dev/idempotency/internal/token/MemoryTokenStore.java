package dev.idempotency.internal.token;

import dev.idempotency.internal.memory.Keyspace;
import dev.idempotency.internal.memory.Keyspace.Change;
import dev.idempotency.internal.memory.Keyspace.Value;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Tokens in this JVM's memory, with the values of {@link RedisTokenStore} ({@code V} while valid, {@code U} and the
 * mark of the submit that used it), each operation one atomic change of one key in a {@link Keyspace}.
 */
public final class MemoryTokenStore implements TokenStore {

    private final Keyspace keyspace;

    public MemoryTokenStore(Keyspace keyspace) {
        this.keyspace = keyspace;
    }

    @Override
    public CompletableFuture<Void> issue(String key, Duration ttl) {
        keyspace.change("issue", key, live -> new Change<>(Value.expiringIn(RedisTokenStore.VALID, ttl), true));
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Use> consume(String key, String mark) {
        byte[] used = RedisTokenStore.used(mark);
        return CompletableFuture.completedFuture(keyspace.change("consume", key, live -> {
            if (live == null) {
                return new Change<>(null, Use.UNKNOWN);
            }
            if (Arrays.equals(live.bytes(), RedisTokenStore.VALID)) {
                return new Change<>(live.withBytes(used), Use.CONSUMED);
            }
            // Our own mark: this submit used it before (as a consume sent again after a lost reply finds it).
            return new Change<>(live, Arrays.equals(live.bytes(), used) ? Use.CONSUMED : Use.USED_BEFORE);
        }));
    }

    @Override
    public CompletableFuture<Void> restore(String key) {
        keyspace.change(
                "restore",
                key,
                live -> new Change<>(live == null ? null : live.withBytes(RedisTokenStore.VALID), true));
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Boolean> restore(String key, String mark) {
        byte[] used = RedisTokenStore.used(mark);
        return CompletableFuture.completedFuture(keyspace.change(
                "restore",
                key,
                live -> live != null && Arrays.equals(live.bytes(), used)
                        ? new Change<>(live.withBytes(RedisTokenStore.VALID), true)
                        : new Change<>(live, false)));
    }
}

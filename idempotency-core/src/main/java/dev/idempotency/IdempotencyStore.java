package dev.idempotency;

import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.spi.IdempotencyStrategy;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.token.IssueQuota;
import dev.idempotency.token.TokenExecutor;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The three strategies on one store, with what they share: {@link dev.idempotency.redis.RedisIdempotency} (Redis, its
 * request records optionally in the application's database) or {@link dev.idempotency.memory.InMemoryIdempotency}
 * (this JVM only, for tests and local runs). The Spring Boot starter builds one from {@code idempotency.store}. Close
 * it on shutdown.
 */
public interface IdempotencyStore extends AutoCloseable {

    /** The {@code REQUEST_ID} strategy and its programmatic API. */
    RequestIdExecutor requestIds();

    /** The {@code TOKEN} strategy and its programmatic API. */
    TokenExecutor tokens();

    /** The {@code LOCK} strategy and its programmatic API. */
    LeaseLockManager locks();

    /** The strategy of one kind. */
    default IdempotencyStrategy strategy(Strategy strategy) {
        return switch (strategy) {
            case REQUEST_ID -> requestIds();
            case TOKEN -> tokens();
            case LOCK -> locks();
        };
    }

    /** How record keys are built, e.g. to find a record: {@code keys().requestId(scope, operation, key)}. */
    RedisKeys keys();

    /**
     * A bound on how many one-time tokens are issued per {@code window}, counted in this store (so that, in Redis, it
     * holds across every instance of the application).
     *
     * @param perCaller tokens one caller may get per window; 0 for no bound
     * @param total tokens the application may issue per window; 0 for no bound
     */
    IssueQuota issueQuota(int perCaller, int total, Duration window);

    /**
     * Deletes one {@code REQUEST_ID} record, wherever the records live, to unstick a key by hand: the next call with it
     * runs the work. Completes with whether there was one.
     */
    CompletableFuture<Boolean> deleteRequestIdRecord(String recordKey);

    /** Deletes one lock ({@link RedisKeys#lock}) whoever holds it, to unstick a resource by hand; whether it was held. */
    CompletableFuture<Boolean> deleteLock(String lockKey);

    /** What the strategies tell about their store calls and what went wrong (metrics). */
    StoreListener listener();

    /** Stops the store's timers and connections. */
    @Override
    void close();
}

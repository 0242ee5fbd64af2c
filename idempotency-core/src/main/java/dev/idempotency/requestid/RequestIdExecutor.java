package dev.idempotency.requestid;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.spi.IdempotencyStrategy;
import java.time.Duration;

/**
 * The {@code REQUEST_ID} strategy and its programmatic API: the first caller claims the key, runs the work and stores
 * its result; duplicates get the stored result without running it. Get one from
 * {@link dev.idempotency.redis.RedisIdempotency#requestIds()}; usable without annotations, e.g. in a message listener:
 *
 * <pre>{@code
 * Receipt receipt = requestIds.execute(call, () -> payments.charge(order), receiptCodec);
 * }</pre>
 */
public interface RequestIdExecutor extends IdempotencyStrategy {

    /** Suggested {@code Retry-After} for a duplicate that meets a running original. */
    Duration IN_PROGRESS_RETRY_AFTER = Duration.ofSeconds(1);

    /**
     * Runs {@code work} if this is the first call with the call's key, else returns the stored result.
     *
     * @throws RequestInProgressException when another call with the key is still running after {@code maxWait}
     * @throws PayloadMismatchException when the key was used with a different payload
     * @throws dev.idempotency.ResultNotStoredException when the first call ran but its result was not kept (too large,
     *     or lost after its transaction committed)
     * @throws dev.idempotency.IdempotencyStoreUnavailableException when the store fails before the work runs
     * @throws E whatever the work throws; the claim is released first so that a retry runs it again
     */
    <T, E extends Throwable> T execute(RequestIdCall call, CheckedSupplier<T, E> work, ResultCodec<T> codec) throws E;
}

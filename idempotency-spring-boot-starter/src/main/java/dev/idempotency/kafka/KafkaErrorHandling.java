package dev.idempotency.kafka;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InvalidIdempotencyKeyException;
import dev.idempotency.InvalidTokenException;
import dev.idempotency.LockBusyException;
import dev.idempotency.MissingIdempotencyKeyException;
import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.ResultNotStoredException;
import dev.idempotency.RetryableIdempotencyException;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.internal.Durations;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.listener.CommonDelegatingErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.Assert;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Error handling for idempotent listeners, for applications that define their own {@link DefaultErrorHandler}
 * (without one, the auto-configured handler is set up this way already):
 *
 * <pre>{@code
 * @Bean
 * CommonErrorHandler kafkaErrorHandler(KafkaTemplate<Object, Object> template) {
 *     DefaultErrorHandler handler = new DefaultErrorHandler(new DeadLetterPublishingRecoverer(template));
 *     return KafkaErrorHandling.retryInProgress(handler, Duration.ofMillis(500));
 * }
 * }</pre>
 */
public final class KafkaErrorHandling {

    /** Bounds the walk down a cause chain, which may loop. */
    private static final int MAX_CAUSE_DEPTH = 16;

    private KafkaErrorHandling() {}

    /**
     * Wraps {@code handler} for idempotent listeners, record and batch ({@link KafkaIdempotency#processEach}) alike:
     *
     * <ul>
     *   <li>a record that can succeed once something else ends ({@link RetryableIdempotencyException} anywhere in the
     *       cause chain) is redelivered without limit, never recovered or dead-lettered for that alone: its key is in
     *       progress elsewhere ({@link RequestInProgressException}, e.g. after a rebalance; the other consumer's claim
     *       ends when it completes, or with its lease if it crashed), its lock is busy ({@link LockBusyException}), or
     *       Redis is unavailable ({@link IdempotencyStoreUnavailableException}: skipping the record would lose its
     *       work). It waits {@code interval} between deliveries, or, while Redis is unavailable, the exception's
     *       {@link RetryableIdempotencyException#retryAfter() retryAfter};
     *   <li>a record without a valid key, whose key was used with another payload, or whose {@code TOKEN} was used
     *       already or is not valid, is recovered at once: no redelivery can fix it;
     *   <li>every other failure gets {@code handler}'s own back-off and recoverer.
     * </ul>
     *
     * The first kind is handled by a handler of its own, so that its deliveries never count toward {@code handler}'s
     * attempts, nor the other way round: a record that fails for real after waiting is recovered after as many attempts
     * as without the wait, and a batch record that failed once is not skipped for then being in progress.
     * {@code handler} keeps its back-off and back-off function; its seek and acknowledgment settings are copied.
     */
    public static CommonDelegatingErrorHandler retryInProgress(DefaultErrorHandler handler, Duration interval) {
        Assert.notNull(handler, "handler must not be null");
        Assert.isTrue(interval != null && !interval.isNegative(), "interval must not be negative");
        handler.addNotRetryableExceptions(
                MissingIdempotencyKeyException.class,
                InvalidIdempotencyKeyException.class,
                PayloadMismatchException.class,
                TokenAlreadyUsedException.class,
                ResultNotStoredException.class,
                InvalidTokenException.class);
        DefaultErrorHandler waiting = new DefaultErrorHandler(backOff(null, interval));
        waiting.setBackOffFunction((record, failure) -> backOff(failure, interval));
        // A delegating handler requires every delegate to seek and acknowledge as its main handler does.
        waiting.setSeekAfterError(handler.isSeekAfterError());
        waiting.setAckAfterHandle(handler.isAckAfterHandle());
        CommonDelegatingErrorHandler delegating = new CommonDelegatingErrorHandler(handler);
        // A record listener's failure arrives wrapped in ListenerExecutionFailedException, a batch record's in
        // BatchListenerFailedException as well.
        delegating.setCauseChainTraversing(true);
        delegating.addDelegate(RetryableIdempotencyException.class, waiting);
        return delegating;
    }

    /** Unlimited deliveries, {@code interval} apart, or as far apart as an unavailable Redis suggests. */
    static BackOff backOff(@Nullable Throwable failure, Duration interval) {
        Duration delay = interval;
        if (retryable(failure) instanceof IdempotencyStoreUnavailableException unavailable
                && unavailable.retryAfter() != null
                && Durations.isPositive(unavailable.retryAfter())) {
            delay = unavailable.retryAfter();
        }
        return new FixedBackOff(delay.toMillis(), FixedBackOff.UNLIMITED_ATTEMPTS);
    }

    private static @Nullable RetryableIdempotencyException retryable(@Nullable Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_CAUSE_DEPTH; depth++) {
            if (cause instanceof RetryableIdempotencyException retryable) {
                return retryable;
            }
            cause = cause.getCause();
        }
        return null;
    }
}

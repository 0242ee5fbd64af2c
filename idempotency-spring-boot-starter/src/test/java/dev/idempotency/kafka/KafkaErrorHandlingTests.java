package dev.idempotency.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.LockBusyException;
import dev.idempotency.RequestInProgressException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.CommonDelegatingErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

/** How long records that can succeed later wait between deliveries, and what the wrapped handler keeps. */
class KafkaErrorHandlingTests {

    private static final Duration INTERVAL = Duration.ofMillis(250);

    @Test
    void aKeyInProgressOrABusyLockWaitsTheIntervalWithoutLimit() {
        assertUnlimited(
                KafkaErrorHandling.backOff(
                        new RequestInProgressException("in progress", Duration.ofSeconds(3)), INTERVAL),
                250);
        assertUnlimited(
                KafkaErrorHandling.backOff(new LockBusyException("busy", Duration.ofSeconds(3)), INTERVAL), 250);
    }

    @Test
    void anUnavailableRedisIsWaitedForAsItSuggestsWithoutLimitAlsoInABatch() {
        IdempotencyStoreUnavailableException unavailable =
                new IdempotencyStoreUnavailableException("Redis is unavailable", Duration.ofSeconds(2));
        assertUnlimited(KafkaErrorHandling.backOff(unavailable, INTERVAL), 2000);
        assertUnlimited(
                KafkaErrorHandling.backOff(
                        new ListenerExecutionFailedException(
                                "listener failed", new BatchListenerFailedException("record 3", unavailable, 3)),
                        INTERVAL),
                2000);
    }

    @Test
    void anUnavailableRedisThatSuggestsNoDelayIsWaitedForTheInterval() {
        assertUnlimited(
                KafkaErrorHandling.backOff(
                        new IdempotencyStoreUnavailableException("Redis is unavailable", Duration.ZERO), INTERVAL),
                250);
    }

    @Test
    void theWrappedHandlerKeepsItsSeekAndAcknowledgmentSettings() {
        DefaultErrorHandler handler = new DefaultErrorHandler();
        handler.setSeekAfterError(false);
        handler.setAckAfterHandle(false);

        CommonDelegatingErrorHandler wrapped = KafkaErrorHandling.retryInProgress(handler, INTERVAL);

        assertThat(wrapped.seeksAfterHandling()).isFalse();
        assertThat(wrapped.isAckAfterHandle()).isFalse();
    }

    private static void assertUnlimited(BackOff backOff, long intervalMillis) {
        assertThat(backOff).isInstanceOfSatisfying(FixedBackOff.class, fixed -> {
            assertThat(fixed.getInterval()).isEqualTo(intervalMillis);
            assertThat(fixed.getMaxAttempts()).isEqualTo(FixedBackOff.UNLIMITED_ATTEMPTS);
        });
    }
}

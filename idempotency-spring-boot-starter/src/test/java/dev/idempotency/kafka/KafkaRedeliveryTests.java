package dev.idempotency.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.LockBusyException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.lock.LockHandle;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The auto-configured error handler on a real broker: records that can succeed later are redelivered until they do,
 * and those deliveries never count toward the attempts a real failure is allowed. The default back-off allows 10.
 */
class KafkaRedeliveryTests extends KafkaTest {

    private static final int DEFAULT_ATTEMPTS = 10;

    @Autowired
    ScriptedListeners listeners;

    @Autowired
    LeaseLockManager locks;

    @Test
    void aRecordThatWaitedInProgressAndThenFailsForRealIsRecoveredAfterTheUsualAttempts() throws Exception {
        String failing = unique("failing");
        String next = unique("next");
        // A plain RuntimeException: RequestInProgressException is one, so sharing a retry state would keep the wait's
        // unlimited back-off.
        listeners
                .failures()
                .script(
                        failing,
                        attempt -> attempt <= 3
                                ? new RequestInProgressException(
                                        "Another consumer is processing it", Duration.ofSeconds(1))
                                : new RuntimeException("The downstream service refused it"));
        send(ScriptedListeners.SCRIPTED, null, "customer-1", unique("key"), failing);
        send(ScriptedListeners.SCRIPTED, null, "customer-1", unique("key"), next);

        // One partition, in order: the next record is handled once the failing one was recovered.
        await(
                "the record after the failing one handled",
                () -> deliveries.succeeded(ScriptedListeners.SCRIPTED, next) == 1);
        assertThat(deliveries.failed(ScriptedListeners.SCRIPTED, failing, RequestInProgressException.class))
                .isEqualTo(3);
        assertThat(deliveries.failed(ScriptedListeners.SCRIPTED, failing, RuntimeException.class))
                .isEqualTo(DEFAULT_ATTEMPTS);
        assertThat(listeners.failures().attempts(failing)).isEqualTo(3 + DEFAULT_ATTEMPTS);
    }

    @Test
    void aRecordThatMeetsRedisUnavailableIsRedeliveredUntilItSucceedsNeverSkipped() throws Exception {
        String order = unique("order");
        int outage = DEFAULT_ATTEMPTS + 2;
        listeners
                .failures()
                .script(
                        order,
                        attempt -> attempt <= outage
                                ? new IdempotencyStoreUnavailableException(
                                        "Redis is unavailable", Duration.ofMillis(10))
                                : null);
        send(ScriptedListeners.SCRIPTED, unique("key"), order);

        await(
                "the record handled after the outage",
                () -> deliveries.succeeded(ScriptedListeners.SCRIPTED, order) == 1);
        assertThat(deliveries.failed(ScriptedListeners.SCRIPTED, order, IdempotencyStoreUnavailableException.class))
                .isEqualTo(outage);
    }

    @Test
    void aLockListenerWhoseLockIsBusyIsRedeliveredUntilTheLockIsFreeNeverRecovered() throws Exception {
        String sku = unique("sku");
        String recordKey = unique("warehouse");
        try (LockHandle held =
                locks.acquire(ScriptedListeners.stock(recordKey), Duration.ofSeconds(30), Duration.ZERO)) {
            send(ScriptedListeners.STOCK, null, recordKey, unique("key"), sku);
            await(
                    "the listener to find the lock busy more often than a failure is retried",
                    () -> deliveries.failed(ScriptedListeners.STOCK, sku, LockBusyException.class) > DEFAULT_ATTEMPTS);
        }

        await(
                "the record handled once the lock is free",
                () -> deliveries.succeeded(ScriptedListeners.STOCK, sku) == 1);
        assertThat(listeners.reservations().of(sku)).isEqualTo(1);
    }
}

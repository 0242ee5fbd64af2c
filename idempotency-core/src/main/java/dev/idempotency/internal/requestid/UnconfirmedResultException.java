package dev.idempotency.internal.requestid;

import dev.idempotency.IdempotencyStoreUnavailableException;
import java.time.Duration;

/**
 * A result that the master stored but too few replicas confirmed in time (with wait-for-replicas): a failover now
 * would bring back the in-progress claim, so the completion is sent again while the claim's lease lasts.
 */
final class UnconfirmedResultException extends IdempotencyStoreUnavailableException {

    UnconfirmedResultException(long acknowledged, long required, Duration timeout, Duration retryAfter) {
        super(
                "The result reached " + acknowledged + " of " + required + " required replicas within "
                        + timeout.toMillis() + " ms; a failover now could run the work again",
                retryAfter);
    }
}

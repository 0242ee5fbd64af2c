package dev.idempotency.requestid;

import dev.idempotency.internal.Durations;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * One protected call: which record, which payload, and how long things live.
 *
 * @param recordKey Redis key of the record, from {@link dev.idempotency.key.RedisKeys#requestId}
 * @param fingerprint payload digest, or {@code null} to skip the payload check
 * @param ttl how long a completed result is kept and replayed
 * @param lease how long an unfinished claim lives without renewal (a crashed process blocks the key this long)
 * @param maxWait how long a duplicate waits for a running original before {@link dev.idempotency.RequestInProgressException}
 */
public record RequestIdCall(
        String recordKey, @Nullable String fingerprint, Duration ttl, Duration lease, Duration maxWait) {

    /** Checks the components: a key, positive durations and a wait that is not negative. */
    public RequestIdCall {
        Assert.hasText(recordKey, "recordKey must not be empty");
        Assert.isTrue(Durations.isPositive(ttl), "ttl must be positive");
        Assert.isTrue(Durations.isPositive(lease), "lease must be positive");
        Assert.isTrue(!maxWait.isNegative(), "maxWait must not be negative");
    }
}

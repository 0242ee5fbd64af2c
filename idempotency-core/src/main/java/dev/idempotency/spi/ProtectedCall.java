package dev.idempotency.spi;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * One call to protect, as every strategy sees it.
 *
 * @param scope who the key belongs to (e.g. a user), empty for a shared scope; hashed into the Redis key
 * @param operation what the call does (an HTTP route or a bean method); hashed into the {@code REQUEST_ID} key
 * @param key the client's idempotency key ({@code REQUEST_ID}), the token ({@code TOKEN}) or the resource
 *     ({@code LOCK})
 * @param fingerprint digest of the payload, or {@code null} to skip the payload check ({@code REQUEST_ID})
 * @param ttl how long a completed result is kept ({@code REQUEST_ID})
 * @param lease how long a claim or lock lives without renewal ({@code REQUEST_ID}, {@code LOCK})
 * @param maxWait how long to wait for a running duplicate or a busy lock before rejecting the call
 */
public record ProtectedCall(
        String scope,
        String operation,
        String key,
        @Nullable String fingerprint,
        Duration ttl,
        Duration lease,
        Duration maxWait) {

    /** Checks the components. */
    public ProtectedCall {
        Assert.notNull(scope, "scope must not be null");
        Assert.notNull(operation, "operation must not be null");
        Assert.notNull(key, "key must not be null");
        Assert.isTrue(ttl != null && !ttl.isNegative() && !ttl.isZero(), "ttl must be positive");
        Assert.isTrue(lease != null && !lease.isNegative() && !lease.isZero(), "lease must be positive");
        Assert.isTrue(!maxWait.isNegative(), "maxWait must not be negative");
    }
}

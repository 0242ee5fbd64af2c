package dev.idempotency.internal.operation;

import dev.idempotency.Strategy;
import dev.idempotency.web.ReleaseOutcome;
import java.time.Duration;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The defaults an {@code @Idempotent} method falls back to, per strategy, as configured under {@code idempotency.*}.
 *
 * @param requestId defaults of {@code REQUEST_ID}
 * @param token defaults of {@code TOKEN}
 * @param lock defaults of {@code LOCK}
 * @param proceedOnStoreFailure whether methods run unprotected when Redis fails
 * @param releaseOn the HTTP outcomes that release a {@code REQUEST_ID} claim
 * @param proceedWithoutKey whether a {@code REQUEST_ID} call without a key runs unprotected instead of being refused
 */
public record OperationDefaults(
        StrategyDefaults requestId,
        StrategyDefaults token,
        StrategyDefaults lock,
        boolean proceedOnStoreFailure,
        Set<ReleaseOutcome> releaseOn,
        boolean proceedWithoutKey) {

    StrategyDefaults of(Strategy strategy) {
        return switch (strategy) {
            case REQUEST_ID -> requestId;
            case TOKEN -> token;
            case LOCK -> lock;
        };
    }

    /** The settings of one strategy. */
    public record StrategyDefaults(
            String header, Duration ttl, Duration lease, Duration maxWait, boolean fingerprint) {}

    /** A named policy; every {@code null} falls back to the strategy's default. */
    public record Policy(
            @Nullable Duration ttl,
            @Nullable Duration lease,
            @Nullable Duration maxWait,
            @Nullable String header,
            @Nullable Boolean fingerprint,
            @Nullable PayloadFields fingerprintFields,
            @Nullable Boolean proceedOnStoreFailure,
            @Nullable Set<ReleaseOutcome> releaseOn,
            @Nullable Boolean proceedWithoutKey) {

        static final Policy NONE = new Policy(null, null, null, null, null, null, null, null, null);
    }
}

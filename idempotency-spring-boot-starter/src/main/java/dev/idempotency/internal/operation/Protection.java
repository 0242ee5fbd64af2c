package dev.idempotency.internal.operation;

import dev.idempotency.AnonymousCallerException;
import dev.idempotency.Strategy;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.scope.ScopeResolver;
import dev.idempotency.spi.IdempotencyStrategy;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What every protected call shares: the strategies, how scopes are resolved and what anonymous callers get, and the
 * observer. One per application.
 */
public final class Protection {

    /** The default of {@code idempotency.detached-renewal}. */
    public static final Duration DEFAULT_DETACHED_RENEWAL = Duration.ofMinutes(10);

    private final Map<Strategy, IdempotencyStrategy> strategies = new EnumMap<>(Strategy.class);
    private final ScopeResolver scopes;
    private final boolean rejectAnonymous;
    private final InvocationObserver observer;
    private final Duration detachedRenewal;

    public Protection(
            List<IdempotencyStrategy> strategies,
            ScopeResolver scopes,
            boolean rejectAnonymous,
            InvocationObserver observer) {
        this(strategies, scopes, rejectAnonymous, observer, DEFAULT_DETACHED_RENEWAL);
    }

    /**
     * @param detachedRenewal how long a claim or lock is still renewed for work whose caller went away (see
     *     {@link dev.idempotency.spi.Permit#detach})
     */
    public Protection(
            List<IdempotencyStrategy> strategies,
            ScopeResolver scopes,
            boolean rejectAnonymous,
            InvocationObserver observer,
            Duration detachedRenewal) {
        strategies.forEach(strategy -> this.strategies.putIfAbsent(strategy.strategy(), strategy));
        for (Strategy strategy : Strategy.values()) {
            if (!this.strategies.containsKey(strategy)) {
                throw new IllegalStateException("No IdempotencyStrategy for " + strategy);
            }
        }
        this.scopes = scopes;
        this.rejectAnonymous = rejectAnonymous;
        this.observer = observer;
        this.detachedRenewal = detachedRenewal;
    }

    /** How long the work of a caller that went away keeps its claim or lock renewed. */
    public Duration detachedRenewal() {
        return detachedRenewal;
    }

    public IdempotencyStrategy strategy(Strategy strategy) {
        return strategies.get(strategy);
    }

    public InvocationObserver observer() {
        return observer;
    }

    /** The scope of the current call as the resolver names it: {@code null} for an anonymous caller. */
    public @Nullable String resolvedScope() {
        return scopes.currentScope();
    }

    /** The scope of the current call; see {@link #scopeOf(String)}. */
    public String currentScope() {
        return scopeOf(scopes.currentScope());
    }

    /**
     * The scope a resolved value stands for: anonymous callers ({@code null}) share one scope, or are refused with
     * {@code idempotency.anonymous: reject}.
     */
    public String scopeOf(@Nullable String resolved) {
        if (resolved != null) {
            return resolved;
        }
        if (rejectAnonymous) {
            throw new AnonymousCallerException("This operation needs an authenticated caller");
        }
        return "";
    }
}

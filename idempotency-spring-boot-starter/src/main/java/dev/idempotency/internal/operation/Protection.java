package dev.idempotency.internal.operation;

import dev.idempotency.AnonymousCallerException;
import dev.idempotency.Strategy;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.scope.ScopeResolver;
import dev.idempotency.spi.IdempotencyStrategy;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What every protected call shares: the strategies, how scopes are resolved and what anonymous callers get, and the
 * observer. One per application.
 */
public final class Protection {

    private final Map<Strategy, IdempotencyStrategy> strategies = new EnumMap<>(Strategy.class);
    private final ScopeResolver scopes;
    private final boolean rejectAnonymous;
    private final InvocationObserver observer;

    public Protection(
            List<IdempotencyStrategy> strategies,
            ScopeResolver scopes,
            boolean rejectAnonymous,
            InvocationObserver observer) {
        strategies.forEach(strategy -> this.strategies.putIfAbsent(strategy.strategy(), strategy));
        for (Strategy strategy : Strategy.values()) {
            if (!this.strategies.containsKey(strategy)) {
                throw new IllegalStateException("No IdempotencyStrategy for " + strategy);
            }
        }
        this.scopes = scopes;
        this.rejectAnonymous = rejectAnonymous;
        this.observer = observer;
    }

    public IdempotencyStrategy strategy(Strategy strategy) {
        return strategies.get(strategy);
    }

    public InvocationObserver observer() {
        return observer;
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

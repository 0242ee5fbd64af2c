package dev.idempotency.observation;

import dev.idempotency.Strategy;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Watches protected calls from start to end, so that metrics can count outcomes and traces can show a span around the
 * call. Micrometer implementations are auto-configured when a {@code MeterRegistry} or an {@code ObservationRegistry}
 * bean exists; define a bean of this type to add your own.
 */
@FunctionalInterface
public interface InvocationObserver {

    /** An observer that does nothing. */
    InvocationObserver NONE = (operation, strategy) -> (outcome, error) -> {};

    /**
     * Called before anything else of the call happens; the returned scope is ended exactly once, when the call ended
     * (for an asynchronous call, when its result is ready).
     *
     * @param operation the operation's short name, e.g. {@code OrderController#create}
     */
    Scope start(String operation, Strategy strategy);

    /** One observed call. */
    @FunctionalInterface
    interface Scope {

        void end(Outcome outcome, @Nullable Throwable error);
    }

    /** Observes with every one of {@code observers}, in order. */
    static InvocationObserver composite(List<InvocationObserver> observers) {
        if (observers.isEmpty()) {
            return NONE;
        }
        if (observers.size() == 1) {
            return observers.get(0);
        }
        return (operation, strategy) -> {
            List<Scope> scopes = observers.stream()
                    .map(observer -> observer.start(operation, strategy))
                    .toList();
            return (outcome, error) -> scopes.forEach(scope -> scope.end(outcome, error));
        };
    }
}

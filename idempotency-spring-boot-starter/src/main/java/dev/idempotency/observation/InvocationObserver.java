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

    /**
     * Starts a call that binds nothing to the current thread: a reactive call, which runs on whatever threads its
     * publisher uses.
     *
     * @param parent the caller's Micrometer {@code Observation} when its reactive context carries one, else
     *     {@code null}
     */
    default Scope startDetached(String operation, Strategy strategy, @Nullable Object parent) {
        return start(operation, strategy);
    }

    /** One observed call. */
    @FunctionalInterface
    interface Scope {

        void end(Outcome outcome, @Nullable Throwable error);

        /**
         * The call goes on on another thread (an asynchronous result): releases what {@link #start} bound to the
         * starting thread. Called on that thread; {@link #end} may then run on any thread.
         */
        default void detach() {}
    }

    /** Observes with every one of {@code observers}, in order. */
    static InvocationObserver composite(List<InvocationObserver> observers) {
        if (observers.isEmpty()) {
            return NONE;
        }
        if (observers.size() == 1) {
            return observers.get(0);
        }
        InvocationObserver[] each = observers.toArray(InvocationObserver[]::new);
        return new InvocationObserver() {
            @Override
            public Scope start(String operation, Strategy strategy) {
                Scope[] scopes = new Scope[each.length];
                for (int i = 0; i < each.length; i++) {
                    scopes[i] = each[i].start(operation, strategy);
                }
                return all(scopes);
            }

            @Override
            public Scope startDetached(String operation, Strategy strategy, @Nullable Object parent) {
                Scope[] scopes = new Scope[each.length];
                for (int i = 0; i < each.length; i++) {
                    scopes[i] = each[i].startDetached(operation, strategy, parent);
                }
                return all(scopes);
            }
        };
    }

    private static Scope all(Scope[] scopes) {
        return new Scope() {
            @Override
            public void end(Outcome outcome, @Nullable Throwable error) {
                for (Scope scope : scopes) {
                    scope.end(outcome, error);
                }
            }

            @Override
            public void detach() {
                for (Scope scope : scopes) {
                    scope.detach();
                }
            }
        };
    }
}

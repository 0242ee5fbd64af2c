package dev.idempotency.metrics;

import dev.idempotency.Strategy;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Wraps every protected call in an {@code idempotency} Observation, so that a trace shows a span around the call with
 * the method's own spans inside it, tagged with the strategy, operation and outcome.
 */
final class ObservingObserver implements InvocationObserver {

    /** Name of the observation (and so of its span and timer). */
    static final String OBSERVATION = "idempotency";

    private final ObservationRegistry observations;

    ObservingObserver(ObservationRegistry observations) {
        this.observations = observations;
    }

    @Override
    public Scope start(String operation, Strategy strategy) {
        Observation observation = create(operation, strategy, null).start();
        return new ObservedCall(observation, observation.openScope());
    }

    @Override
    public Scope startDetached(String operation, Strategy strategy, @Nullable Object parent) {
        return new ObservedCall(create(operation, strategy, parent).start(), null);
    }

    private Observation create(String operation, Strategy strategy, @Nullable Object parent) {
        Observation observation = Observation.createNotStarted(OBSERVATION, observations)
                .contextualName("idempotency " + operation)
                .lowCardinalityKeyValue("strategy", TagValues.of(strategy))
                .lowCardinalityKeyValue("operation", operation);
        if (parent instanceof Observation caller) {
            observation.parentObservation(caller);
        }
        return observation;
    }

    /** One observation, with the scope that made it current on the starting thread until detached or ended. */
    private static final class ObservedCall implements Scope {

        private final Observation observation;
        private volatile Observation.@Nullable Scope threadScope;

        ObservedCall(Observation observation, Observation.@Nullable Scope threadScope) {
            this.observation = observation;
            this.threadScope = threadScope;
        }

        @Override
        public void detach() {
            Observation.Scope scope = threadScope;
            threadScope = null;
            if (scope != null) {
                scope.close();
            }
        }

        @Override
        public void end(Outcome outcome, @Nullable Throwable error) {
            observation.lowCardinalityKeyValue("outcome", outcome.tag());
            if (error != null) {
                observation.error(error);
            }
            detach();
            observation.stop();
        }
    }
}

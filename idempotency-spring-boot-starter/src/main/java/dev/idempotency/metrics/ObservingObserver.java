package dev.idempotency.metrics;

import dev.idempotency.Strategy;
import dev.idempotency.observation.InvocationObserver;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

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
        Observation observation = Observation.createNotStarted(OBSERVATION, observations)
                .contextualName("idempotency " + operation)
                .lowCardinalityKeyValue("strategy", strategy.name())
                .lowCardinalityKeyValue("operation", operation)
                .start();
        Observation.Scope scope = observation.openScope();
        return (outcome, error) -> {
            observation.lowCardinalityKeyValue("outcome", outcome.tag());
            if (error != null) {
                observation.error(error);
            }
            scope.close();
            observation.stop();
        };
    }
}

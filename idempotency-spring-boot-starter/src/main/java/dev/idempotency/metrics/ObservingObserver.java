package dev.idempotency.metrics;

import dev.idempotency.Strategy;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Wraps every protected call in an {@code idempotency} Observation, so that a trace shows a span around the call with
 * the method's own spans inside it, tagged with the strategy, operation and outcome.
 */
final class ObservingObserver implements InvocationObserver {

    /** Name of the observation (and so of its span and timer). */
    static final String OBSERVATION = "idempotency";

    private final ObservationRegistry observations;
    private final Map<String, Names> operations = new ConcurrentHashMap<>();

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
        Names names = operations.computeIfAbsent(operation, Names::new);
        Observation observation = Observation.createNotStarted(OBSERVATION, observations)
                .contextualName(names.contextual)
                .lowCardinalityKeyValue(STRATEGIES[strategy.ordinal()])
                .lowCardinalityKeyValue(names.operation);
        if (parent instanceof Observation caller) {
            observation.parentObservation(caller);
        }
        return observation;
    }

    private static final KeyValue[] STRATEGIES = Arrays.stream(Strategy.values())
            .map(strategy -> KeyValue.of("strategy", TagValues.of(strategy)))
            .toArray(KeyValue[]::new);

    private static final KeyValue[] OUTCOMES = Arrays.stream(Outcome.values())
            .map(outcome -> KeyValue.of("outcome", outcome.tag()))
            .toArray(KeyValue[]::new);

    /** What an operation's observations are named and tagged with, built once per operation rather than per call. */
    private static final class Names {

        final String contextual;
        final KeyValue operation;

        Names(String operation) {
            this.contextual = "idempotency " + operation;
            this.operation = KeyValue.of("operation", operation);
        }
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
            observation.lowCardinalityKeyValue(OUTCOMES[outcome.ordinal()]);
            if (error != null) {
                observation.error(error);
            }
            detach();
            observation.stop();
        }
    }
}

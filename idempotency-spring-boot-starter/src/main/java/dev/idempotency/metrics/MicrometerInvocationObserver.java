package dev.idempotency.metrics;

import dev.idempotency.aop.IdempotentOperation;
import dev.idempotency.aop.InvocationObserver;
import dev.idempotency.aop.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts every protected call in {@code idempotency.requests} (tags {@code strategy}, {@code operation},
 * {@code outcome}) and wraps it in an {@code idempotency} Observation, so a trace shows a span around the call with the
 * method's own spans inside it.
 */
public final class MicrometerInvocationObserver implements InvocationObserver {

    /** Name of the counter of protected calls. */
    public static final String REQUESTS = "idempotency.requests";

    /** Name of the observation (and so of its span and timer). */
    public static final String OBSERVATION = "idempotency";

    private final MeterRegistry meters;
    private final ObservationRegistry observations;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public MicrometerInvocationObserver(MeterRegistry meters, ObservationRegistry observations) {
        this.meters = meters;
        this.observations = observations;
    }

    @Override
    public Scope start(IdempotentOperation operation) {
        String strategy = operation.strategy().name();
        Observation observation = Observation.createNotStarted(OBSERVATION, observations)
                .contextualName("idempotency " + operation.name())
                .lowCardinalityKeyValue("strategy", strategy)
                .lowCardinalityKeyValue("operation", operation.name())
                .start();
        Observation.Scope scope = observation.openScope();
        return (outcome, error) -> {
            counter(strategy, operation.name(), outcome).increment();
            observation.lowCardinalityKeyValue("outcome", outcome.tag());
            if (error != null) {
                observation.error(error);
            }
            scope.close();
            observation.stop();
        };
    }

    /** Counters are looked up once per operation and outcome, not built per call. */
    private Counter counter(String strategy, String operation, Outcome outcome) {
        return counters.computeIfAbsent(
                operation + '\0' + outcome.tag(),
                key -> Counter.builder(REQUESTS)
                        .description("Calls of @Idempotent methods by outcome")
                        .tag("strategy", strategy)
                        .tag("operation", operation)
                        .tag("outcome", outcome.tag())
                        .register(meters));
    }
}

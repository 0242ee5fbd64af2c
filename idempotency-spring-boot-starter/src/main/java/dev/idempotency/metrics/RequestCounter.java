package dev.idempotency.metrics;

import dev.idempotency.Strategy;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/** Counts every protected call in {@code idempotency.requests}, tagged {@code strategy}, {@code operation}, {@code outcome}. */
final class RequestCounter implements InvocationObserver {

    /** Name of the counter of protected calls. */
    static final String REQUESTS = "idempotency.requests";

    private final MeterRegistry meters;
    private final Map<String, Counters> operations = new ConcurrentHashMap<>();

    RequestCounter(MeterRegistry meters) {
        this.meters = meters;
    }

    @Override
    public Scope start(String operation, Strategy strategy) {
        Counters counters = operations.get(operation);
        if (counters == null || counters.strategy != strategy) {
            counters = operations.compute(
                    operation,
                    (name, known) ->
                            known != null && known.strategy == strategy ? known : new Counters(name, strategy));
        }
        return counters;
    }

    /**
     * The counters of one operation, one per outcome, registered on first use: the same scope ends every call of the
     * operation, as counting needs nothing of the call but its outcome (no string built, no lookup, per call).
     */
    private final class Counters implements Scope {

        private final String operation;
        private final Strategy strategy;
        private final Counter[] byOutcome = new Counter[Outcome.values().length];

        Counters(String operation, Strategy strategy) {
            this.operation = operation;
            this.strategy = strategy;
        }

        @Override
        public void end(Outcome outcome, @Nullable Throwable error) {
            Counter counter = byOutcome[outcome.ordinal()];
            if (counter == null) {
                counter = Counter.builder(REQUESTS)
                        .description("Calls of @Idempotent methods by outcome")
                        .tag("strategy", TagValues.of(strategy))
                        .tag("operation", operation)
                        .tag("outcome", outcome.tag())
                        .register(meters); // the registry's own instance: a race registers it once
                byOutcome[outcome.ordinal()] = counter;
            }
            counter.increment();
        }
    }
}

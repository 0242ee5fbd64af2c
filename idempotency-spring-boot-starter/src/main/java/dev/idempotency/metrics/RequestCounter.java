package dev.idempotency.metrics;

import dev.idempotency.Strategy;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Counts every protected call in {@code idempotency.requests}, tagged {@code strategy}, {@code operation}, {@code outcome}. */
final class RequestCounter implements InvocationObserver {

    /** Name of the counter of protected calls. */
    static final String REQUESTS = "idempotency.requests";

    private final MeterRegistry meters;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    RequestCounter(MeterRegistry meters) {
        this.meters = meters;
    }

    @Override
    public Scope start(String operation, Strategy strategy) {
        return (outcome, error) -> counter(strategy, operation, outcome).increment();
    }

    /** Counters are looked up once per operation and outcome, not built per call. */
    private Counter counter(Strategy strategy, String operation, Outcome outcome) {
        return counters.computeIfAbsent(
                operation + '\0' + outcome.tag(),
                key -> Counter.builder(REQUESTS)
                        .description("Calls of @Idempotent methods by outcome")
                        .tag("strategy", TagValues.of(strategy))
                        .tag("operation", operation)
                        .tag("outcome", outcome.tag())
                        .register(meters));
    }
}

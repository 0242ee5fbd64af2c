package dev.idempotency.client;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;

/** Counts covered calls in {@code idempotency.client.requests}, tagged {@code outcome}. */
final class MicrometerCallOutcomes implements CallOutcomes {

    /** Name of the counter of covered calls. */
    static final String REQUESTS = "idempotency.client.requests";

    private final Map<CallOutcome, Counter> counters = new EnumMap<>(CallOutcome.class);

    /** Registers every outcome up front, so that a dashboard shows zero retries rather than no data. */
    MicrometerCallOutcomes(MeterRegistry meters) {
        for (CallOutcome outcome : CallOutcome.values()) {
            counters.put(
                    outcome,
                    Counter.builder(REQUESTS)
                            .description("Calls made with an idempotency key, by how they ended")
                            .tag("outcome", outcome.tag())
                            .register(meters));
        }
    }

    @Override
    public void record(CallOutcome outcome) {
        counters.get(outcome).increment();
    }
}

package dev.idempotency.metrics;

import dev.idempotency.support.StoreCallListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Times every Redis call in {@code idempotency.redis} with tags {@code kind} and {@code result} (success, failure). */
public final class MicrometerStoreCallListener implements StoreCallListener {

    /** Name of the timer of Redis calls. */
    public static final String REDIS_CALLS = "idempotency.redis";

    private final MeterRegistry meters;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public MicrometerStoreCallListener(MeterRegistry meters) {
        this.meters = meters;
    }

    @Override
    public void onCall(String kind, long nanos, boolean failed) {
        String result = failed ? "failure" : "success";
        timers.computeIfAbsent(
                        kind + '\0' + result,
                        key -> Timer.builder(REDIS_CALLS)
                                .description("Redis calls made by the idempotency strategies")
                                .tag("kind", kind)
                                .tag("result", result)
                                .register(meters))
                .record(nanos, TimeUnit.NANOSECONDS);
    }
}

package dev.idempotency.metrics;

import dev.idempotency.Strategy;
import dev.idempotency.spi.StoreListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Times every Redis call in {@code idempotency.redis} (tags {@code kind}, {@code result}) and counts what went wrong
 * after the work ran: {@code idempotency.leases.lost} (tag {@code strategy}), {@code idempotency.locks.release.failed}
 * , {@code idempotency.results.undecodable}, {@code idempotency.results.not.stored} and
 * {@code idempotency.tokens.refused} (tag {@code reason}).
 */
final class MicrometerStoreListener implements StoreListener {

    static final String REDIS_CALLS = "idempotency.redis";
    static final String LEASES_LOST = "idempotency.leases.lost";
    static final String LOCK_RELEASES_FAILED = "idempotency.locks.release.failed";
    static final String UNDECODABLE_RESULTS = "idempotency.results.undecodable";
    static final String RESULTS_NOT_STORED = "idempotency.results.not.stored";
    static final String TOKENS_REFUSED = "idempotency.tokens.refused";

    private final MeterRegistry meters;
    private final Map<String, Timer[]> timers = new ConcurrentHashMap<>();
    private final Map<Strategy, Counter> lost = new EnumMap<>(Strategy.class);
    private final Map<String, Counter> tokensRefused = new ConcurrentHashMap<>();
    private final Counter releasesFailed;
    private final Counter undecodable;
    private final Counter notStored;

    MicrometerStoreListener(MeterRegistry meters) {
        this.meters = meters;
        this.releasesFailed = Counter.builder(LOCK_RELEASES_FAILED)
                .description("Locks that could not be released after their work ran; they expired instead")
                .register(meters);
        this.undecodable = Counter.builder(UNDECODABLE_RESULTS)
                .description("Stored results that could not be decoded; the work ran again")
                .register(meters);
        // Registered up front: a dashboard or an alert then sees zero, not no data, until the first one.
        for (Strategy strategy : Strategy.values()) {
            lost.put(
                    strategy,
                    Counter.builder(LEASES_LOST)
                            .description("Claims and locks lost while their work was running")
                            .tag("strategy", strategy.name())
                            .register(meters));
        }
        this.notStored = Counter.builder(RESULTS_NOT_STORED)
                .description("Calls that completed their key without a stored result (larger than the size limit)")
                .register(meters);
    }

    @Override
    public void onCall(String kind, long nanos, boolean failed) {
        Timer[] byResult = timers.get(kind); // kinds are a handful of constants: no string built per call
        if (byResult == null) {
            byResult = timers.computeIfAbsent(kind, key -> new Timer[2]);
        }
        int result = failed ? 1 : 0;
        Timer timer = byResult[result];
        if (timer == null) {
            timer = Timer.builder(REDIS_CALLS)
                    .description("Redis calls made by the idempotency strategies")
                    .tag("kind", kind)
                    .tag("result", failed ? "failure" : "success")
                    .register(meters); // the registry's own instance: a race registers it once
            byResult[result] = timer;
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onLeaseLost(Strategy strategy) {
        lost.get(strategy).increment();
    }

    @Override
    public void onTokenRefused(String reason) {
        tokensRefused
                .computeIfAbsent(
                        reason,
                        key -> Counter.builder(TOKENS_REFUSED)
                                .description(
                                        "Token requests refused at issuance: a bound reached, an anonymous caller or an"
                                                + " unknown operation")
                                .tag("reason", key)
                                .register(meters))
                .increment();
    }

    @Override
    public void onLockReleaseFailed() {
        releasesFailed.increment();
    }

    @Override
    public void onUndecodableResult() {
        undecodable.increment();
    }

    @Override
    public void onResultNotStored() {
        notStored.increment();
    }
}

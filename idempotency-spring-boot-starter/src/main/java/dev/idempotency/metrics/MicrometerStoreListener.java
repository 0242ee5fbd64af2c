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
 * Times every store call in {@code idempotency.store} (tags {@code store}, {@code kind}, {@code result}) and counts what
 * went wrong after the work ran: {@code idempotency.leases.lost} (tag {@code strategy}),
 * {@code idempotency.locks.release.failed}, {@code idempotency.results.undecodable}, {@code idempotency.results.not.stored}
 * and {@code idempotency.tokens.refused} (tag {@code reason}). {@code idempotency.redis} (tags {@code kind},
 * {@code result}) still times the Redis and JDBC calls as it did, for one release: deprecated, removed in 0.2.
 */
final class MicrometerStoreListener implements StoreListener {

    static final String STORE_CALLS = "idempotency.store";

    /** The timer {@code idempotency.store} had before 0.1.0 named itself after Redis: an alias until 0.2. */
    @Deprecated(since = "0.1.0", forRemoval = true)
    static final String REDIS_CALLS = "idempotency.redis";

    static final String LEASES_LOST = "idempotency.leases.lost";
    static final String LOCK_RELEASES_FAILED = "idempotency.locks.release.failed";
    static final String UNDECODABLE_RESULTS = "idempotency.results.undecodable";
    static final String RESULTS_NOT_STORED = "idempotency.results.not.stored";
    static final String TOKENS_REFUSED = "idempotency.tokens.refused";

    /** The reasons of {@link StoreListener#onTokenRefused}, registered up front like the other counters. */
    private static final String[] TOKEN_REFUSALS = {"caller", "total", "anonymous", "operation"};

    private final MeterRegistry meters;
    private final Map<String, Map<String, Timer[][]>> timers = new ConcurrentHashMap<>();
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
                .description("Stored results that this version could not decode: the duplicate was answered"
                        + " result-not-stored (or, with undecodable-results rerun, the work ran again)")
                .register(meters);
        // Registered up front: a dashboard or an alert then sees zero, not no data, until the first one.
        for (Strategy strategy : Strategy.values()) {
            lost.put(
                    strategy,
                    Counter.builder(LEASES_LOST)
                            .description("Claims and locks lost while their work was running")
                            .tag("strategy", TagValues.of(strategy))
                            .register(meters));
        }
        this.notStored = Counter.builder(RESULTS_NOT_STORED)
                .description("Calls that completed their key without a stored result (larger than the size limit)")
                .register(meters);
        for (String reason : TOKEN_REFUSALS) {
            tokenRefused(reason);
        }
    }

    @Override
    public void onCall(String store, String kind, long nanos, boolean failed) {
        // Stores and kinds are a handful of constants: no string is built per call.
        Map<String, Timer[][]> ofStore = timers.computeIfAbsent(store, unused -> new ConcurrentHashMap<>());
        Timer[][] byResult = ofStore.computeIfAbsent(kind, unused -> new Timer[2][]);
        int result = failed ? 1 : 0;
        Timer[] recorded = byResult[result];
        if (recorded == null) {
            recorded = timers(store, kind, failed ? "failure" : "success"); // the registry's own: a race registers once
            byResult[result] = recorded;
        }
        for (Timer timer : recorded) {
            timer.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** The timer of one store, kind and result; with the deprecated alias beside it for Redis and JDBC calls. */
    @SuppressWarnings("removal")
    private Timer[] timers(String store, String kind, String result) {
        Timer timer = Timer.builder(STORE_CALLS)
                .description("Calls of the idempotency strategies to their store (Redis, the JDBC store, memory)")
                .tag("store", store)
                .tag("kind", kind)
                .tag("result", result)
                .register(meters);
        if (store.equals(StoreListener.IN_MEMORY)) {
            return new Timer[] {timer}; // the alias only ever timed Redis and JDBC calls
        }
        Timer alias = Timer.builder(REDIS_CALLS)
                .description("Deprecated, removed in 0.2: use idempotency.store (tag store)")
                .tag("kind", kind)
                .tag("result", result)
                .register(meters);
        return new Timer[] {timer, alias};
    }

    @Override
    public void onLeaseLost(Strategy strategy) {
        lost.get(strategy).increment();
    }

    @Override
    public void onTokenRefused(String reason) {
        tokenRefused(reason).increment();
    }

    private Counter tokenRefused(String reason) {
        return tokensRefused.computeIfAbsent(
                reason,
                key -> Counter.builder(TOKENS_REFUSED)
                        .description(
                                "Token requests refused at issuance: a bound reached, an anonymous caller or an unknown"
                                        + " operation")
                        .tag("reason", key)
                        .register(meters));
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

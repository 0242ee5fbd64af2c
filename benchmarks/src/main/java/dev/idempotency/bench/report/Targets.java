package dev.idempotency.bench.report;

import java.util.Map;

/** The targets of the performance issue, by scenario. */
final class Targets {

    /** Minimum req/s relative to {@code /baseline}. */
    static final Map<String, Double> MIN_RATIO = Map.of(
            "request-id-first", 0.62,
            "request-id-dup", 0.80,
            "token", 0.75,
            "lock", 0.60);

    /** Maximum round trips per request. */
    static final Map<String, Double> MAX_ROUND_TRIPS = Map.of(
            "request-id-first", 2.0,
            "request-id-dup", 1.0,
            "token", 1.0,
            "lock", 2.0);

    /** A stored record may cost at most the stored body plus this many bytes ({@code MEMORY USAGE}). */
    static final long RECORD_OVERHEAD_BYTES = 200;

    /** The in-JVM cost of one intercepted call, in nanoseconds. */
    static final double INTERCEPTOR_NANOS = 5_000;

    private Targets() {}
}

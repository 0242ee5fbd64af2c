package dev.idempotency.bench.load;

/**
 * The outcome of one load run, in the shape of {@code wrk/bench.lua}'s summary line.
 *
 * @param requests requests completed
 * @param durationMicros how long the run took
 * @param errors failed requests (connection errors, timeouts, status 400 and above)
 * @param p50Micros median latency
 * @param p99Micros 99th percentile latency
 */
public record LoadResult(long requests, long durationMicros, long errors, long p50Micros, long p99Micros) {

    /** Marks the summary line among other output. */
    public static final String PREFIX = "WRK_RESULT";

    /** Requests per second. */
    public double requestsPerSecond() {
        return durationMicros == 0 ? 0 : requests * 1_000_000.0 / durationMicros;
    }

    /** The summary line, as {@code bench.lua} prints it. */
    public String line() {
        return PREFIX + " requests=" + requests + " duration_us=" + durationMicros + " errors=" + errors + " p50_us="
                + p50Micros + " p99_us=" + p99Micros;
    }

    /** Parses a summary line printed by either driver. */
    public static LoadResult parse(String line) {
        String trimmed = line.trim();
        if (!trimmed.startsWith(PREFIX + " ")) {
            throw new IllegalArgumentException("Not a " + PREFIX + " line: " + line);
        }
        long requests = -1;
        long duration = -1;
        long errors = -1;
        long p50 = -1;
        long p99 = -1;
        for (String field : trimmed.substring(PREFIX.length() + 1).split("\\s+")) {
            String[] pair = field.split("=", 2);
            long value = Long.parseLong(pair[1]);
            switch (pair[0]) {
                case "requests" -> requests = value;
                case "duration_us" -> duration = value;
                case "errors" -> errors = value;
                case "p50_us" -> p50 = value;
                case "p99_us" -> p99 = value;
                default -> {
                    // tolerate fields added later
                }
            }
        }
        if (requests < 0 || duration < 0 || errors < 0 || p50 < 0 || p99 < 0) {
            throw new IllegalArgumentException("Incomplete " + PREFIX + " line: " + line);
        }
        return new LoadResult(requests, duration, errors, p50, p99);
    }
}

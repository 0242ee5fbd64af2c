package dev.idempotency.bench.load;

/**
 * A small log-linear latency histogram in microseconds: 32 sub-buckets per power of two, so a percentile is off by at
 * most about 3%. Not thread-safe: one per thread, then {@link #add(LatencyHistogram)}.
 */
public final class LatencyHistogram {

    private static final int SUB_BUCKET_BITS = 5;
    private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    private static final int MAGNITUDES = 40;

    private final long[] counts = new long[MAGNITUDES * SUB_BUCKETS];
    private long total;

    /** Records one latency. */
    public void record(long micros) {
        counts[index(Math.max(0, micros))]++;
        total++;
    }

    /** Adds every recording of {@code other} to this histogram. */
    public void add(LatencyHistogram other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
    }

    /** How many latencies were recorded. */
    public long count() {
        return total;
    }

    /** The latency at or below which {@code percent} of the recordings fall (upper bound of its bucket); 0 when empty. */
    public long percentile(double percent) {
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(total * percent / 100.0));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return upperBound(i);
            }
        }
        return upperBound(counts.length - 1);
    }

    static int index(long value) {
        if (value < SUB_BUCKETS) {
            return (int) value;
        }
        int magnitude = 63 - Long.numberOfLeadingZeros(value) - SUB_BUCKET_BITS + 1;
        int sub = (int) (value >>> (magnitude - 1)) & (SUB_BUCKETS - 1);
        return Math.min(magnitude * SUB_BUCKETS + sub, MAGNITUDES * SUB_BUCKETS - 1);
    }

    static long upperBound(int index) {
        int magnitude = index / SUB_BUCKETS;
        int sub = index % SUB_BUCKETS;
        if (magnitude == 0) {
            return sub;
        }
        return ((long) (SUB_BUCKETS + sub + 1) << (magnitude - 1)) - 1;
    }
}

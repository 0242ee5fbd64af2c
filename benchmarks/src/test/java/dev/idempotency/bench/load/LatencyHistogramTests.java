package dev.idempotency.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LatencyHistogramTests {

    @Test
    void percentilesOfAUniformRangeAreWithinThreePercent() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (long micros = 1; micros <= 10_000; micros++) {
            histogram.record(micros);
        }
        assertThat(histogram.count()).isEqualTo(10_000);
        assertThat((double) histogram.percentile(50)).isCloseTo(5_000, within(150.0));
        assertThat((double) histogram.percentile(99)).isCloseTo(9_900, within(300.0));
        assertThat(histogram.percentile(100)).isGreaterThanOrEqualTo(10_000);
    }

    @Test
    void smallValuesAreExact() {
        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(3);
        histogram.record(7);
        assertThat(histogram.percentile(50)).isEqualTo(3);
        assertThat(histogram.percentile(100)).isEqualTo(7);
    }

    @Test
    void everyValueFallsInABucketWhoseUpperBoundCoversIt() {
        for (long value : new long[] {0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 1_000, 65_535, 1_000_000, 60_000_000}) {
            long upper = LatencyHistogram.upperBound(LatencyHistogram.index(value));
            assertThat(upper).isGreaterThanOrEqualTo(value);
            assertThat((double) upper).isLessThanOrEqualTo(value * 1.07 + 1);
        }
    }

    @Test
    void mergedHistogramsCountEverything() {
        LatencyHistogram one = new LatencyHistogram();
        LatencyHistogram two = new LatencyHistogram();
        one.record(100);
        two.record(200);
        two.record(300);
        one.add(two);
        assertThat(one.count()).isEqualTo(3);
        assertThat(one.percentile(50)).isBetween(200L, 207L);
    }

    @Test
    void emptyHistogramAnswersZero() {
        assertThat(new LatencyHistogram().percentile(99)).isZero();
    }
}

package dev.idempotency.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Medians and number formatting for the report. */
public final class Stats {

    private Stats() {}

    /** The median; the mean of the two middle values for an even count; {@code NaN} when empty. */
    public static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /** {@code value} with {@code decimals} decimals, a dot as separator whatever the locale. */
    public static String format(double value, int decimals) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}

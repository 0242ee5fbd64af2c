package dev.idempotency.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A horizontal grouped bar chart written as a self-contained SVG (no script, no external font), which GitHub renders
 * inline in Markdown: one group per row label, one bar per series, the value printed at the end of each bar. A value
 * that is not a number (a scenario that did not run) leaves its bar out.
 */
final class BarChart {

    private static final String[] COLOURS = {"#2f6fb0", "#e08a2c", "#4f9a55", "#a44a8c"};
    private static final int LABELS = 190;
    private static final int PLOT = 460;
    private static final int BAR = 13;
    private static final int GROUP_GAP = 12;
    private static final int TOP = 58;

    private final String title;
    private final String unit;
    private final List<String> series;
    private final List<Group> groups = new ArrayList<>();

    private record Group(String label, double[] values) {}

    /**
     * @param title the heading drawn above the bars
     * @param unit what the axis counts, printed under it
     * @param series the name of each bar of a group, in order (at most four)
     */
    BarChart(String title, String unit, List<String> series) {
        if (series.isEmpty() || series.size() > COLOURS.length) {
            throw new IllegalArgumentException("between 1 and " + COLOURS.length + " series, please: " + series);
        }
        this.title = title;
        this.unit = unit;
        this.series = List.copyOf(series);
    }

    /** Adds a row: one value per series, {@code NaN} for none. */
    BarChart group(String label, double... values) {
        if (values.length != series.size()) {
            throw new IllegalArgumentException(
                    label + ": " + values.length + " values for " + series.size() + " series");
        }
        groups.add(new Group(label, values.clone()));
        return this;
    }

    /** The chart as an SVG document; the axis runs from 0 to a round number above the largest value. */
    String svg() {
        double max = axisMax();
        int groupHeight = series.size() * BAR + GROUP_GAP;
        int plotHeight = groups.size() * groupHeight;
        int height = TOP + plotHeight + 44;
        int width = LABELS + PLOT + 60;
        StringBuilder svg = new StringBuilder();
        svg.append(format(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                        + " font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n",
                width, height, width, height));
        svg.append(format("<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", width, height));
        svg.append(format("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n", escape(title)));
        legend(svg);
        for (int tick = 0; tick <= 4; tick++) {
            double value = max * tick / 4;
            int x = LABELS + (int) Math.round(PLOT * value / max);
            svg.append(format(
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#dddddd\"/>%n",
                    x, TOP - 4, x, TOP + plotHeight));
            svg.append(format(
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%s</text>%n",
                    x, TOP + plotHeight + 16, number(value)));
        }
        svg.append(format(
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%s</text>%n",
                LABELS + PLOT / 2, TOP + plotHeight + 34, escape(unit)));
        int y = TOP;
        for (Group group : groups) {
            svg.append(format(
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    LABELS - 8, y + series.size() * BAR / 2 + 4, escape(group.label())));
            for (int s = 0; s < series.size(); s++) {
                double value = group.values()[s];
                if (!Double.isNaN(value)) {
                    int length = (int) Math.round(PLOT * value / max);
                    svg.append(format(
                            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
                            LABELS, y + s * BAR, Math.max(length, 1), BAR - 2, COLOURS[s]));
                    svg.append(format(
                            "<text x=\"%d\" y=\"%d\" font-size=\"10\">%s</text>%n",
                            LABELS + length + 4, y + s * BAR + BAR - 3, number(value)));
                }
            }
            y += groupHeight;
        }
        return svg.append("</svg>\n").toString();
    }

    private void legend(StringBuilder svg) {
        int x = LABELS;
        for (int s = 0; s < series.size(); s++) {
            svg.append(format("<rect x=\"%d\" y=\"32\" width=\"12\" height=\"12\" fill=\"%s\"/>%n", x, COLOURS[s]));
            svg.append(format("<text x=\"%d\" y=\"42\">%s</text>%n", x + 16, escape(series.get(s))));
            x += 24 + 7 * series.get(s).length();
        }
    }

    /** 1, 2 or 5 times a power of ten, at or above the largest value. */
    private double axisMax() {
        double largest = groups.stream()
                .flatMapToDouble(group -> java.util.Arrays.stream(group.values()))
                .filter(value -> !Double.isNaN(value))
                .max()
                .orElse(1);
        double power = Math.pow(10, Math.floor(Math.log10(Math.max(largest, 1e-9))));
        for (double step : new double[] {1, 2, 5, 10}) {
            if (step * power >= largest) {
                return step * power;
            }
        }
        return 10 * power;
    }

    private static String number(double value) {
        return value >= 10 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String format(String pattern, Object... arguments) {
        return String.format(Locale.ROOT, pattern, arguments);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

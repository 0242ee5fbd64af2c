package dev.idempotency.bench.report;

import java.util.Optional;

/**
 * The section of the report that shows this run's pictures and its "vs baseline" ratios beside the previous run's,
 * scenario by scenario, with the change: the figures a reader compares when a change may have cost throughput.
 */
final class RatioComparison {

    private RatioComparison() {}

    /** Markdown for the section; the charts are linked relative to the report, in {@code images/}. */
    static String markdown(LoadRuns load, Optional<PreviousRun> previous, String thisCommit) {
        StringBuilder md = new StringBuilder("### Pictures and the previous run\n\n");
        md.append("![Throughput relative to the unprotected baseline](images/")
                .append(BenchCharts.RATIOS)
                .append(")\n\n![Latency percentiles](images/")
                .append(BenchCharts.LATENCY)
                .append(")\n\n");
        if (previous.isEmpty()) {
            return md.append("No previous report was found to compare with.\n\n")
                    .toString();
        }
        PreviousRun before = previous.get();
        md.append("\"vs baseline\" of this run beside the run this report replaced (`")
                .append(before.commit())
                .append("`, ")
                .append(before.date())
                .append("), same command. The machine is noisy: two runs of the same build differ by up to ±0.1.\n\n");
        md.append("| scenario | previous (`")
                .append(before.commit())
                .append("`) | this run (`")
                .append(thisCommit)
                .append("`) | change |\n|---|---:|---:|---:|\n");
        for (String scenario : BenchReport.RATIO_LINE) {
            double now = load.ratio(scenario);
            Double then = before.ratios().get(scenario);
            md.append("| ")
                    .append(scenario)
                    .append(" | ")
                    .append(then == null ? "-" : Stats.format(then, 2))
                    .append(" | ")
                    .append(Stats.format(now, 2))
                    .append(" | ")
                    .append(
                            then == null || Double.isNaN(now)
                                    ? "-"
                                    : String.format(java.util.Locale.ROOT, "%+.2f", now - then))
                    .append(" |\n");
        }
        return md.append('\n').toString();
    }
}

package dev.idempotency.bench.report;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The section of the report that shows this run's pictures and, scenario by scenario, its "vs baseline" ratio, the
 * app's CPU time and its allocation per request beside the previous run's, with the change of the ratio: the figures a
 * reader compares when a change may have cost throughput.
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
        md.append("This run beside the run this report replaced (`")
                .append(before.commit())
                .append("`, ")
                .append(before.date())
                .append("), same command: \"vs baseline\", the app's CPU time per request (us) and its allocation per"
                        + " request (KB; `-` where a run did not measure it). The machine is noisy: two runs of the"
                        + " same build differ by up to ±0.1 in a ratio and by about 10% in CPU per request;"
                        + " allocation is the stable figure.\n\n");
        md.append("| scenario | previous (`")
                .append(before.commit())
                .append("`) | this run (`")
                .append(thisCommit)
                .append("`) | change | app CPU before | app CPU now | KB before | KB now |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        Set<String> scenarios = new LinkedHashSet<>(load.scenarios());
        scenarios.addAll(BenchReport.RATIO_LINE);
        for (String scenario : scenarios) {
            double now = load.ratio(scenario);
            Double then = before.ratios().get(scenario);
            md.append("| ")
                    .append(scenario)
                    .append(" | ")
                    .append(then == null ? "-" : Stats.format(then, 2))
                    .append(" | ")
                    .append(Stats.format(now, 2))
                    .append(" | ")
                    .append(then == null || Double.isNaN(now) ? "-" : String.format(Locale.ROOT, "%+.2f", now - then))
                    .append(" | ")
                    .append(figure(before.appCpu(), scenario, 0))
                    .append(" | ")
                    .append(Stats.format(load.appCpuPerRequest(scenario), 0))
                    .append(" | ")
                    .append(figure(before.appKilobytes(), scenario, 1))
                    .append(" | ")
                    .append(Stats.format(load.appBytesPerRequest(scenario) / 1024, 1))
                    .append(" |\n");
        }
        return md.append('\n').toString();
    }

    private static String figure(Map<String, Double> figures, String scenario, int decimals) {
        Double value = figures.get(scenario);
        return value == null ? "-" : Stats.format(value, decimals);
    }
}

package dev.idempotency.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The pictures of a run, beside {@code docs/BENCHMARKS.md}: throughput relative to the unprotected baseline per
 * strategy and stack, and latency percentiles per scenario.
 */
final class BenchCharts {

    /** File name of the ratio chart, in the images folder. */
    static final String RATIOS = "benchmark-ratios.svg";

    /** File name of the latency chart, in the images folder. */
    static final String LATENCY = "benchmark-latency.svg";

    /** The rows of the ratio chart: each strategy's scenario, then the hand-written reference. */
    private static final List<String> STRATEGIES =
            List.of("request-id-first", "request-id-dup", "token", "lock", "handwritten-first");

    private BenchCharts() {}

    /** Writes both charts into {@code folder}, creating it. */
    static void write(LoadRuns load, Path folder) throws IOException {
        Files.createDirectories(folder);
        Files.writeString(folder.resolve(RATIOS), ratios(load).svg());
        Files.writeString(folder.resolve(LATENCY), latency(load).svg());
    }

    /** Requests per second relative to the same stack's baseline in the same repetition (median). */
    static BarChart ratios(LoadRuns load) {
        BarChart chart = new BarChart(
                "Throughput with protection, relative to no protection",
                "requests per second / the same stack's unprotected baseline (1.00 = no cost)",
                List.of("Spring MVC", "Spring WebFlux"));
        for (String scenario : STRATEGIES) {
            chart.group(scenario, ratio(load, scenario), ratio(load, LoadRuns.WEBFLUX + scenario));
        }
        return chart;
    }

    /** Median p50 and p99 latency of every scenario that ran, in milliseconds. */
    static BarChart latency(LoadRuns load) {
        BarChart chart =
                new BarChart("Latency under load", "milliseconds (median over repetitions)", List.of("p50", "p99"));
        for (String scenario : load.scenarios()) {
            chart.group(scenario, load.p50Micros(scenario) / 1000, load.p99Micros(scenario) / 1000);
        }
        return chart;
    }

    private static double ratio(LoadRuns load, String scenario) {
        return load.repetitions(scenario) == 0 ? Double.NaN : load.ratio(scenario);
    }
}

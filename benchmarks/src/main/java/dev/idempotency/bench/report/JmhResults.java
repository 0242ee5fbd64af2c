package dev.idempotency.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The results JMH writes with {@code -rf json}: one score per benchmark and parameter set. */
public final class JmhResults {

    /**
     * One benchmark result.
     *
     * @param benchmark short name, {@code Class.method} plus parameters, e.g. {@code KeyBenchmarks.ownerId}
     * @param score the average
     * @param error the 99.9% confidence half-width ({@code NaN} with too few iterations)
     * @param unit e.g. {@code ns/op}
     * @param allocatedBytes bytes allocated per operation ({@code -prof gc}), {@code NaN} without that profiler
     */
    public record Score(String benchmark, double score, double error, String unit, double allocatedBytes) {}

    private final List<Score> scores;

    private JmhResults(List<Score> scores) {
        this.scores = scores;
    }

    /** Parses JMH's JSON result file content; an empty text gives no scores. */
    public static JmhResults parse(String json) {
        List<Score> scores = new ArrayList<>();
        if (json.isBlank()) {
            return new JmhResults(scores);
        }
        JsonNode root = JsonMapper.builder().build().readTree(json);
        for (JsonNode result : root) {
            String full = result.get("benchmark").asString();
            String[] parts = full.split("\\.");
            String name = parts.length >= 2 ? parts[parts.length - 2] + "." + parts[parts.length - 1] : full;
            JsonNode params = result.get("params");
            if (params != null && params.isObject()) {
                Map<String, String> sorted = new TreeMap<>();
                params.properties()
                        .forEach(entry ->
                                sorted.put(entry.getKey(), entry.getValue().asString()));
                StringBuilder suffix = new StringBuilder();
                sorted.forEach((key, value) -> suffix.append(suffix.isEmpty() ? "" : ",")
                        .append(key)
                        .append('=')
                        .append(value));
                name += " (" + suffix + ")";
            }
            JsonNode metric = result.get("primaryMetric");
            double error = metric.get("scoreError").isNumber()
                    ? metric.get("scoreError").asDouble()
                    : Double.NaN;
            JsonNode allocation =
                    result.path("secondaryMetrics").path("gc.alloc.rate.norm").path("score");
            scores.add(new Score(
                    name,
                    metric.get("score").asDouble(),
                    error,
                    metric.get("scoreUnit").asString(),
                    allocation.isNumber() ? allocation.asDouble() : Double.NaN));
        }
        return new JmhResults(scores);
    }

    /** The scores of several result files, in order. */
    public static JmhResults concat(List<JmhResults> results) {
        List<Score> all = new ArrayList<>();
        results.forEach(result -> all.addAll(result.scores));
        return new JmhResults(all);
    }

    /** Every score, in JMH's order. */
    public List<Score> scores() {
        return scores;
    }

    /** The score of a benchmark by its short name. */
    public Optional<Score> find(String benchmark) {
        return scores.stream()
                .filter(score -> score.benchmark().equals(benchmark))
                .findFirst();
    }
}

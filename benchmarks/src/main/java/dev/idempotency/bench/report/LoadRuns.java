package dev.idempotency.bench.report;

import dev.idempotency.bench.load.LoadResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTTP runs of one harness run: per scenario and repetition, one {@link LoadResult}. Ratios are taken per
 * repetition against that repetition's baseline of the same stack ({@link #baselineOf}), then the median over
 * repetitions, so that slow drift of a noisy machine cancels out.
 */
public final class LoadRuns {

    /** The scenario every Spring MVC one is compared with. */
    public static final String BASELINE = "baseline";

    /** The prefix of the scenarios run against the WebFlux variant of the app, e.g. {@code webflux-lock}. */
    public static final String WEBFLUX = "webflux-";

    /**
     * The prefix of the scenarios run against a Spring MVC app whose {@code REQUEST_ID} records live in PostgreSQL
     * ({@code idempotency.store: jdbc}), e.g. {@code jdbc-request-id-first}.
     */
    public static final String JDBC = "jdbc-";

    /**
     * The prefix of the scenarios run against a Spring MVC app whose {@code REQUEST_ID} records live in MariaDB
     * ({@code idempotency.store: jdbc}, {@code bench.database: mariadb}), e.g. {@code mariadb-request-id-first}.
     */
    public static final String MARIADB = "mariadb-";

    private final Map<String, Map<Integer, LoadResult>> runs = new LinkedHashMap<>();
    private final Map<String, Map<Integer, CpuUsage>> cpu = new LinkedHashMap<>();

    /**
     * CPU time used while one run lasted, in microseconds, and the app's heap allocation meanwhile.
     *
     * @param app the bench app's process
     * @param redis the Redis server's process
     * @param machine all cores, every process (the load driver included)
     * @param appAllocated bytes the app's threads allocated, -1 when not measured
     */
    public record CpuUsage(long app, long redis, long machine, long appAllocated) {

        /** Parses {@code app_cpu_us=.. redis_cpu_us=.. machine_cpu_us=..[ app_alloc_bytes=..]}. */
        static CpuUsage parse(String text) {
            Map<String, Long> values = new java.util.HashMap<>();
            for (String field : text.trim().split("\\s+")) {
                String[] pair = field.split("=", 2);
                if (pair.length == 2) {
                    values.put(pair[0], Long.parseLong(pair[1]));
                }
            }
            return new CpuUsage(
                    values.getOrDefault("app_cpu_us", 0L),
                    values.getOrDefault("redis_cpu_us", 0L),
                    values.getOrDefault("machine_cpu_us", 0L),
                    values.getOrDefault("app_alloc_bytes", -1L));
        }
    }

    /**
     * Parses lines {@code scenario<TAB>repetition<TAB>WRK_RESULT ...[<TAB>app_cpu_us=.. redis_cpu_us=..
     * machine_cpu_us=..]}; blank lines and lines starting with {@code #} are skipped.
     */
    public static LoadRuns parse(List<String> lines) {
        LoadRuns parsed = new LoadRuns();
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\t", 4);
            if (fields.length < 3) {
                throw new IllegalArgumentException("Expected scenario, repetition and result: " + line);
            }
            int repetition = Integer.parseInt(fields[1].trim());
            parsed.add(fields[0], repetition, LoadResult.parse(fields[2]));
            if (fields.length == 4) {
                parsed.cpu
                        .computeIfAbsent(fields[0], name -> new LinkedHashMap<>())
                        .put(repetition, CpuUsage.parse(fields[3]));
            }
        }
        return parsed;
    }

    /** Records one run. */
    public void add(String scenario, int repetition, LoadResult result) {
        runs.computeIfAbsent(scenario, name -> new LinkedHashMap<>()).put(repetition, result);
    }

    /** Scenarios in the order they were first seen. */
    public List<String> scenarios() {
        return new ArrayList<>(runs.keySet());
    }

    /** Median requests per second. */
    public double requestsPerSecond(String scenario) {
        return median(scenario, LoadResult::requestsPerSecond);
    }

    /** Median of the per-repetition medians, in microseconds. */
    public double p50Micros(String scenario) {
        return median(scenario, result -> (double) result.p50Micros());
    }

    /** Median of the per-repetition 99th percentiles, in microseconds. */
    public double p99Micros(String scenario) {
        return median(scenario, result -> (double) result.p99Micros());
    }

    /** Errors summed over all repetitions. */
    public long errors(String scenario) {
        return runs.getOrDefault(scenario, Map.of()).values().stream()
                .mapToLong(LoadResult::errors)
                .sum();
    }

    /**
     * Median over repetitions of this scenario's req/s divided by its {@linkplain #baselineOf baseline}'s req/s in the
     * same repetition.
     */
    public double ratio(String scenario) {
        return ratio(scenario, baselineOf(scenario));
    }

    /** Median over repetitions of this scenario's req/s divided by {@code baseline}'s req/s in the same repetition. */
    public double ratio(String scenario, String baseline) {
        Map<Integer, LoadResult> reference = runs.getOrDefault(baseline, Map.of());
        List<Double> ratios = new ArrayList<>();
        runs.getOrDefault(scenario, Map.of()).forEach((repetition, result) -> {
            LoadResult base = reference.get(repetition);
            if (base != null && base.requestsPerSecond() > 0) {
                ratios.add(result.requestsPerSecond() / base.requestsPerSecond());
            }
        });
        return Stats.median(ratios);
    }

    /**
     * The baseline a scenario is compared with: the one of its app, {@code webflux-baseline} for WebFlux's,
     * {@code jdbc-baseline} for the JDBC store's on PostgreSQL, {@code mariadb-baseline} for its on MariaDB.
     */
    public static String baselineOf(String scenario) {
        if (isWebFlux(scenario)) {
            return WEBFLUX + BASELINE;
        }
        if (isMariaDb(scenario)) {
            return MARIADB + BASELINE;
        }
        return isJdbc(scenario) ? JDBC + BASELINE : BASELINE;
    }

    /** Whether the scenario ran against the app on the JDBC record store on PostgreSQL. */
    public static boolean isJdbc(String scenario) {
        return scenario.startsWith(JDBC);
    }

    /** Whether the scenario ran against the app on the JDBC record store on MariaDB. */
    public static boolean isMariaDb(String scenario) {
        return scenario.startsWith(MARIADB);
    }

    /** Whether the scenario ran against the WebFlux variant of the app. */
    public static boolean isWebFlux(String scenario) {
        return scenario.startsWith(WEBFLUX);
    }

    /** Median CPU time of the bench app per request, in microseconds; {@code NaN} when not measured. */
    public double appCpuPerRequest(String scenario) {
        return cpuPerRequest(scenario, CpuUsage::app);
    }

    /** Median CPU time of Redis per request, in microseconds. */
    public double redisCpuPerRequest(String scenario) {
        return cpuPerRequest(scenario, CpuUsage::redis);
    }

    /** Median CPU time of everything else (the load driver, the OS) per request, in microseconds. */
    public double otherCpuPerRequest(String scenario) {
        return cpuPerRequest(scenario, usage -> usage.machine() - usage.app() - usage.redis());
    }

    /** Median bytes the bench app allocated per request; {@code NaN} when not measured. */
    public double appBytesPerRequest(String scenario) {
        return cpuPerRequest(scenario, CpuUsage::appAllocated);
    }

    /** The median of {@code metric} per request over the repetitions that measured it (a negative value did not). */
    private double cpuPerRequest(String scenario, java.util.function.ToLongFunction<CpuUsage> metric) {
        List<Double> values = new ArrayList<>();
        Map<Integer, LoadResult> results = runs.getOrDefault(scenario, Map.of());
        cpu.getOrDefault(scenario, Map.of()).forEach((repetition, usage) -> {
            LoadResult result = results.get(repetition);
            if (result != null && result.requests() > 0 && metric.applyAsLong(usage) >= 0) {
                values.add(metric.applyAsLong(usage) / (double) result.requests());
            }
        });
        return Stats.median(values);
    }

    /** How many repetitions the scenario has. */
    public int repetitions(String scenario) {
        return runs.getOrDefault(scenario, Map.of()).size();
    }

    private double median(String scenario, java.util.function.ToDoubleFunction<LoadResult> metric) {
        List<Double> values = new ArrayList<>();
        runs.getOrDefault(scenario, Map.of()).values().forEach(result -> values.add(metric.applyAsDouble(result)));
        return Stats.median(values);
    }
}

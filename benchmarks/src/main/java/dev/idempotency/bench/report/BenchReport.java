package dev.idempotency.bench.report;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Turns the raw outputs of {@code benchmarks/run.sh} into the console table, {@code docs/BENCHMARKS.md} (beside the
 * ratios of the report it replaces) and the charts in {@code docs/images/}, and prints the closing {@code ratio ...}
 * line last.
 *
 * <pre>
 * java -cp ... dev.idempotency.bench.report.BenchReport --results load.tsv --redis-cost cost.properties
 *      --jmh jmh.json[,more.json] --env env.properties [--findings benchmarks/findings.md] --out docs/BENCHMARKS.md
 * </pre>
 */
public final class BenchReport {

    /** The scenarios of the closing line, in its order. */
    static final List<String> RATIO_LINE = List.of(
            "request-id-first",
            "request-id-dup",
            "token",
            "lock",
            "handwritten-first",
            "webflux-request-id-first",
            "webflux-request-id-dup",
            "webflux-token",
            "webflux-lock",
            "jdbc-request-id-first",
            "jdbc-request-id-dup",
            "mariadb-request-id-first",
            "mariadb-request-id-dup");

    private BenchReport() {}

    /** Entry point; see the class comment. */
    public static void main(String[] args) throws IOException {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        LoadRuns load = LoadRuns.parse(Files.readAllLines(Path.of(options.get("results"))));
        Properties cost = properties(options.get("redis-cost"));
        Properties env = properties(options.get("env"));
        Versions.fill(env);
        List<JmhResults> jmhFiles = new java.util.ArrayList<>();
        for (String file : options.getOrDefault("jmh", "").split(",")) {
            jmhFiles.add(JmhResults.parse(read(file.isBlank() ? null : file)));
        }
        JmhResults jmh = JmhResults.concat(jmhFiles);
        String findings = read(options.get("findings"));

        Path out = options.containsKey("out") ? Path.of(options.get("out")) : null;
        Optional<PreviousRun> previous = PreviousRun.of(out == null ? "" : read(out.toString()));
        MarkdownReport report = new MarkdownReport(load, cost, jmh, env, findings, previous);
        if (out != null) {
            Files.writeString(out, report.markdown());
            BenchCharts.write(load, out.toAbsolutePath().getParent().resolve("images"));
        }
        System.out.println(report.consoleTable());
        System.out.println(ratioLine(load));
    }

    /**
     * {@code ratio request-id-first=X request-id-dup=Y token=Z lock=W handwritten-first=H webflux-request-id-first=A
     * webflux-request-id-dup=B webflux-token=C webflux-lock=D jdbc-request-id-first=E jdbc-request-id-dup=F
     * mariadb-request-id-first=G mariadb-request-id-dup=H}: Spring MVC's relative to {@code baseline}, WebFlux's to
     * {@code webflux-baseline}, the JDBC store's to {@code jdbc-baseline} (PostgreSQL) or {@code mariadb-baseline}
     * (MariaDB).
     */
    static String ratioLine(LoadRuns load) {
        StringBuilder line = new StringBuilder("ratio");
        for (String scenario : RATIO_LINE) {
            line.append(' ').append(scenario).append('=').append(Stats.format(load.ratio(scenario), 2));
        }
        return line.toString();
    }

    private static Properties properties(String file) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(read(file)));
        return properties;
    }

    private static String read(String file) throws IOException {
        return file == null || !Files.exists(Path.of(file)) ? "" : Files.readString(Path.of(file));
    }
}

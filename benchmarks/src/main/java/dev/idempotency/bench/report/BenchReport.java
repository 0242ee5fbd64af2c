package dev.idempotency.bench.report;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Turns the raw outputs of {@code benchmarks/run.sh} into the console table and {@code docs/BENCHMARKS.md}, and prints
 * the closing {@code ratio ...} line last.
 *
 * <pre>
 * java -cp ... dev.idempotency.bench.report.BenchReport --results load.tsv --redis-cost cost.properties
 *      --jmh jmh.json[,more.json] --env env.properties [--findings benchmarks/findings.md] --out docs/BENCHMARKS.md
 * </pre>
 */
public final class BenchReport {

    /** The scenarios of the closing line, in its order, with the names it uses. */
    static final List<String[]> RATIO_LINE = List.of(
            new String[] {"request-id-first", "request-id-first"},
            new String[] {"request-id-dup", "request-id-dup"},
            new String[] {"token", "token"},
            new String[] {"lock", "lock"},
            new String[] {"handwritten-first", "handwritten-first"});

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

        MarkdownReport report = new MarkdownReport(load, cost, jmh, env, findings);
        if (options.containsKey("out")) {
            Files.writeString(Path.of(options.get("out")), report.markdown());
        }
        System.out.println(report.consoleTable());
        System.out.println(ratioLine(load));
    }

    /** {@code ratio request-id-first=X request-id-dup=Y token=Z lock=W handwritten-first=H}. */
    static String ratioLine(LoadRuns load) {
        StringBuilder line = new StringBuilder("ratio");
        for (String[] entry : RATIO_LINE) {
            line.append(' ').append(entry[1]).append('=').append(Stats.format(load.ratio(entry[0]), 2));
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

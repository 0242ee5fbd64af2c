package dev.idempotency.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class MarkdownReportTests {

    private static String line(String scenario, long requests) {
        return scenario + "\t1\tWRK_RESULT requests=" + requests
                + " duration_us=10000000 errors=0 p50_us=1000 p99_us=3000";
    }

    private static String markdown(String... lines) {
        return new MarkdownReport(
                        LoadRuns.parse(List.of(lines)), new Properties(), JmhResults.parse(""), new Properties(), "")
                .markdown();
    }

    @Test
    void webFluxScenariosHaveTheirOwnTableAgainstTheirOwnBaseline() {
        String markdown = markdown(
                line("baseline", 1000), line("lock", 500), line("webflux-baseline", 2000), line("webflux-lock", 1500));
        String mvc = markdown.substring(0, markdown.indexOf("### Spring WebFlux"));
        String webFlux = markdown.substring(markdown.indexOf("### Spring WebFlux"), markdown.indexOf("## Redis"));
        assertThat(mvc).contains("| lock | `POST /lock`: `LOCK`").doesNotContain("| webflux-");
        assertThat(webFlux)
                .contains("that baseline itself ran at 2.00 times Spring MVC's `baseline`")
                .contains("| webflux-baseline | `POST /baseline` returning `Mono`: no protection | 200 | 1.00 |")
                .contains(
                        "| webflux-lock | `POST /lock` returning `Mono`: distinct lock key per request | 150 | 0.75 |");
        assertThat(markdown).contains("lock=0.50 handwritten-first=n/a").contains("webflux-lock=0.75");
    }

    @Test
    void mariaDbScenariosHaveTheirOwnTableAgainstTheirOwnBaselineNamingTheServer() {
        Properties env = new Properties();
        env.setProperty("mariadb", "10.11.19-MariaDB");
        String markdown = new MarkdownReport(
                        LoadRuns.parse(List.of(
                                line("baseline", 1000),
                                line("request-id-first", 700),
                                line("jdbc-baseline", 900),
                                line("jdbc-request-id-first", 450),
                                line("mariadb-baseline", 800),
                                line("mariadb-request-id-first", 320),
                                line("mariadb-request-id-dup", 680))),
                        new Properties(),
                        JmhResults.parse(""),
                        env,
                        "")
                .markdown();
        String mvc = markdown.substring(0, markdown.indexOf("### The JDBC record store"));
        String postgres = markdown.substring(
                markdown.indexOf("### The JDBC record store"),
                markdown.indexOf("### The JDBC record store on MariaDB"));
        String mariaDb = markdown.substring(
                markdown.indexOf("### The JDBC record store on MariaDB"), markdown.indexOf("## Redis"));
        assertThat(mvc).doesNotContain("| mariadb-").doesNotContain("| jdbc-");
        assertThat(postgres).contains("| jdbc-request-id-first |").doesNotContain("| mariadb-");
        assertThat(mariaDb)
                .contains("MariaDB 10.11.19-MariaDB (Debian's `mariadbd`, a real server on the same machine")
                .contains("that baseline itself ran at 0.80 times the Redis app's `baseline`")
                .contains("`jdbc-request-id-first` 0.50")
                .contains(
                        "| mariadb-baseline | `POST /baseline`, app on the JDBC store on MariaDB: no protection | 80 |"
                                + " 1.00 |")
                .contains(
                        "| mariadb-request-id-first | `POST /request-id`, records in MariaDB: unique key per request |"
                                + " 32 | 0.40 |")
                .contains("| mariadb-request-id-dup | `POST /request-id`, records in MariaDB: one key (replayed) | 68 |"
                        + " 0.85 |")
                .doesNotContain("| jdbc-");
        assertThat(markdown)
                .contains("| MariaDB | 10.11.19-MariaDB |")
                .contains("jdbc-request-id-dup=n/a mariadb-request-id-first=0.40 mariadb-request-id-dup=0.85\n");
    }

    @Test
    void noMariaDbSectionWithoutMariaDbRuns() {
        assertThat(markdown(line("baseline", 1000), line("jdbc-baseline", 900), line("jdbc-request-id-first", 450)))
                .contains("### The JDBC record store")
                .doesNotContain("### The JDBC record store on MariaDB");
    }

    @Test
    void noWebFluxSectionWithoutWebFluxRuns() {
        assertThat(markdown(line("baseline", 1000), line("lock", 500))).doesNotContain("WebFlux");
    }

    @Test
    void theNextReportShowsThisOnesRatiosCpuAndAllocationAsThePreviousRun() {
        String cpu = "\tapp_cpu_us=%d redis_cpu_us=0 machine_cpu_us=%d app_alloc_bytes=%d";
        LoadRuns first = LoadRuns.parse(List.of(
                line("baseline", 1000) + cpu.formatted(150_000, 600_000, 30_720_000),
                line("lock", 500) + cpu.formatted(140_000, 600_000, 20_480_000)));
        String report =
                new MarkdownReport(first, new Properties(), JmhResults.parse(""), new Properties(), "").markdown();
        assertThat(report)
                .contains("| app CPU us/req | Redis CPU us/req | other CPU us/req | app alloc KB/req |")
                .contains("| 150 | 0.0 | 450 | 30.0 |")
                .contains("| 280 | 0.0 | 920 | 40.0 |");

        LoadRuns second = LoadRuns.parse(List.of(
                line("baseline", 1000) + cpu.formatted(140_000, 600_000, 30_720_000),
                line("lock", 800) + cpu.formatted(160_000, 600_000, 16_384_000)));
        String next = new MarkdownReport(
                        second, new Properties(), JmhResults.parse(""), new Properties(), "", PreviousRun.of(report))
                .markdown();
        assertThat(next)
                .contains("| app CPU before | app CPU now | KB before | KB now |")
                .contains("| baseline | - | 1.00 | - | 150 | 140 | 30.0 | 30.0 |")
                .contains("| lock | 0.50 | 0.80 | +0.30 | 280 | 200 | 40.0 | 20.0 |");
    }

    @Test
    void aPreviousReportWithoutTheAllocationColumnLeavesItsAllocationOut() {
        String old = "| scenario | what | req/s | vs baseline | target | p50 ms | p99 ms | errors | app CPU us/req"
                + " | Redis CPU us/req | other CPU us/req |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                + "| lock | `POST /lock` | 500 | 0.50 |  | 1.00 | 3.00 | 0 | 280 | 0.0 | 920 |\n\n"
                + "ratio lock=0.50\n";
        PreviousRun previous = PreviousRun.of(old).orElseThrow();
        assertThat(previous.appCpu()).containsEntry("lock", 280.0);
        assertThat(previous.appKilobytes()).isEmpty();
        assertThat(RatioComparison.markdown(
                        LoadRuns.parse(List.of(line("baseline", 1000), line("lock", 600))), Optional.of(previous), "x"))
                .contains("| lock | 0.50 | 0.60 | +0.10 | 280 | n/a | - | n/a |");
    }
}

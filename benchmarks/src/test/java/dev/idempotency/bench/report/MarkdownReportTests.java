package dev.idempotency.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
    void noWebFluxSectionWithoutWebFluxRuns() {
        assertThat(markdown(line("baseline", 1000), line("lock", 500))).doesNotContain("WebFlux");
    }
}

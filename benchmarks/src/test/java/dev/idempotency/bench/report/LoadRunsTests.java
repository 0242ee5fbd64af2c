package dev.idempotency.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoadRunsTests {

    private static String line(String scenario, int repetition, long requests) {
        return scenario + "\t" + repetition + "\tWRK_RESULT requests=" + requests
                + " duration_us=10000000 errors=0 p50_us=1000 p99_us=3000";
    }

    @Test
    void ratioIsTheMedianOfPerRepetitionRatios() {
        LoadRuns runs = LoadRuns.parse(List.of(
                "# scenario repetition result",
                line("baseline", 1, 100_000),
                line("lock", 1, 70_000),
                line("baseline", 2, 50_000),
                line("lock", 2, 40_000),
                line("baseline", 3, 100_000),
                line("lock", 3, 60_000)));
        // per repetition: 0.70, 0.80, 0.60 -> median 0.70 (the ratio of medians would be 0.60)
        assertThat(runs.ratio("lock")).isCloseTo(0.70, within(1e-9));
        assertThat(runs.requestsPerSecond("baseline")).isCloseTo(10_000, within(1e-6));
        assertThat(runs.repetitions("lock")).isEqualTo(3);
        assertThat(runs.scenarios()).containsExactly("baseline", "lock");
    }

    @Test
    void cpuPerRequestComesFromTheOptionalFourthColumn() {
        LoadRuns runs = LoadRuns.parse(List.of(
                line("baseline", 1, 1000) + "\tapp_cpu_us=150000 redis_cpu_us=20000 machine_cpu_us=200000",
                line("lock", 1, 1000)));
        assertThat(runs.appCpuPerRequest("baseline")).isEqualTo(150.0);
        assertThat(runs.redisCpuPerRequest("baseline")).isEqualTo(20.0);
        assertThat(runs.otherCpuPerRequest("baseline")).isEqualTo(30.0);
        assertThat(runs.appCpuPerRequest("lock")).isNaN();
        assertThat(runs.appBytesPerRequest("baseline")).as("not measured").isNaN();
    }

    @Test
    void allocationPerRequestIsTheMedianOverTheRepetitionsThatMeasuredIt() {
        String cpu = "\tapp_cpu_us=1 redis_cpu_us=0 machine_cpu_us=1";
        LoadRuns runs = LoadRuns.parse(List.of(
                line("baseline", 1, 1000) + cpu + " app_alloc_bytes=30000000",
                line("baseline", 2, 1000) + cpu + " app_alloc_bytes=40000000",
                line("baseline", 3, 1000) + cpu));
        assertThat(runs.appBytesPerRequest("baseline")).isEqualTo(35_000.0);
    }

    @Test
    void missingScenarioHasNoRatio() {
        LoadRuns runs = LoadRuns.parse(List.of(line("baseline", 1, 100)));
        assertThat(runs.ratio("token")).isNaN();
        assertThat(Stats.format(runs.ratio("token"), 2)).isEqualTo("n/a");
    }

    @Test
    void webFluxScenariosAreComparedWithTheWebFluxBaseline() {
        LoadRuns runs = LoadRuns.parse(List.of(
                line("baseline", 1, 100_000),
                line("lock", 1, 50_000),
                line("webflux-baseline", 1, 80_000),
                line("webflux-lock", 1, 60_000)));
        assertThat(runs.ratio("lock")).isCloseTo(0.50, within(1e-9));
        assertThat(runs.ratio("webflux-lock")).isCloseTo(0.75, within(1e-9));
        assertThat(runs.ratio("webflux-baseline")).isCloseTo(1.0, within(1e-9));
        assertThat(runs.ratio("webflux-baseline", LoadRuns.BASELINE)).isCloseTo(0.80, within(1e-9));
        assertThat(LoadRuns.baselineOf("webflux-request-id-dup")).isEqualTo("webflux-baseline");
        assertThat(LoadRuns.baselineOf("jdbc-request-id-first")).isEqualTo("jdbc-baseline");
        assertThat(LoadRuns.baselineOf("mariadb-request-id-first")).isEqualTo("mariadb-baseline");
        assertThat(LoadRuns.baselineOf("mariadb-request-id-dup")).isEqualTo("mariadb-baseline");
        assertThat(LoadRuns.baselineOf("request-id-first")).isEqualTo("baseline");
        assertThat(LoadRuns.baselineOf("request-id-dup")).isEqualTo("baseline");
    }

    @Test
    void eachJdbcDatabaseIsComparedWithItsOwnBaselineOfTheSameRepetition() {
        LoadRuns runs = LoadRuns.parse(List.of(
                line("baseline", 1, 100_000),
                line("jdbc-baseline", 1, 90_000),
                line("jdbc-request-id-first", 1, 45_000),
                line("mariadb-baseline", 1, 80_000),
                line("mariadb-request-id-first", 1, 20_000),
                line("baseline", 2, 100_000),
                line("jdbc-baseline", 2, 90_000),
                line("jdbc-request-id-first", 2, 54_000),
                line("mariadb-baseline", 2, 40_000),
                line("mariadb-request-id-first", 2, 20_000)));
        // per repetition against mariadb-baseline: 0.25, 0.50 -> 0.375; against jdbc-baseline 0.50, 0.60 -> 0.55
        assertThat(runs.ratio("mariadb-request-id-first")).isCloseTo(0.375, within(1e-9));
        assertThat(runs.ratio("jdbc-request-id-first")).isCloseTo(0.55, within(1e-9));
        assertThat(runs.ratio("mariadb-baseline")).isCloseTo(1.0, within(1e-9));
        assertThat(runs.ratio("mariadb-baseline", LoadRuns.BASELINE)).isCloseTo(0.60, within(1e-9));
        assertThat(LoadRuns.isMariaDb("mariadb-request-id-dup")).isTrue();
        assertThat(LoadRuns.isJdbc("mariadb-request-id-dup")).isFalse();
        assertThat(LoadRuns.isMariaDb("jdbc-request-id-dup")).isFalse();
    }

    @Test
    void ratioLineHasEveryScenarioWithTwoDecimals() {
        LoadRuns runs = LoadRuns.parse(List.of(
                line("baseline", 1, 1000),
                line("request-id-first", 1, 700),
                line("request-id-dup", 1, 900),
                line("token", 1, 800),
                line("lock", 1, 650),
                line("handwritten-first", 1, 750),
                line("webflux-baseline", 1, 2000),
                line("webflux-request-id-first", 1, 1200),
                line("webflux-request-id-dup", 1, 1600),
                line("webflux-token", 1, 1500),
                line("webflux-lock", 1, 1100),
                line("jdbc-baseline", 1, 900),
                line("jdbc-request-id-first", 1, 450),
                line("jdbc-request-id-dup", 1, 720),
                line("mariadb-baseline", 1, 800),
                line("mariadb-request-id-first", 1, 320),
                line("mariadb-request-id-dup", 1, 680)));
        assertThat(BenchReport.ratioLine(runs))
                .isEqualTo("ratio request-id-first=0.70 request-id-dup=0.90 token=0.80 lock=0.65 handwritten-first=0.75"
                        + " webflux-request-id-first=0.60 webflux-request-id-dup=0.80 webflux-token=0.75"
                        + " webflux-lock=0.55 jdbc-request-id-first=0.50 jdbc-request-id-dup=0.80"
                        + " mariadb-request-id-first=0.40 mariadb-request-id-dup=0.85");
    }

    @Test
    void ratioLineKeepsItsKeysWithoutWebFluxRuns() {
        LoadRuns runs = LoadRuns.parse(List.of(line("baseline", 1, 1000), line("lock", 1, 650)));
        assertThat(BenchReport.ratioLine(runs))
                .isEqualTo("ratio request-id-first=n/a request-id-dup=n/a token=n/a lock=0.65 handwritten-first=n/a"
                        + " webflux-request-id-first=n/a webflux-request-id-dup=n/a webflux-token=n/a"
                        + " webflux-lock=n/a jdbc-request-id-first=n/a jdbc-request-id-dup=n/a"
                        + " mariadb-request-id-first=n/a mariadb-request-id-dup=n/a");
    }

    @Test
    void medianOfEvenCountIsTheMeanOfTheMiddle() {
        assertThat(Stats.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
        assertThat(Stats.median(List.of())).isNaN();
    }
}

package dev.idempotency.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JmhResultsTests {

    @Test
    void parsesScoresWithParametersAndMissingErrors() {
        String json = """
                [
                  {"benchmark": "dev.idempotency.key.KeyBenchmarks.ownerId", "mode": "avgt",
                   "primaryMetric": {"score": 41.5, "scoreError": 1.25, "scoreUnit": "ns/op"},
                   "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 136.0, "scoreUnit": "B/op"}}},
                  {"benchmark": "dev.idempotency.internal.lease.LeaseRenewerBenchmarks.startAndEnd", "mode": "avgt",
                   "params": {"inFlight": "16"},
                   "primaryMetric": {"score": 900.0, "scoreError": "NaN", "scoreUnit": "ns/op"}}
                ]
                """;
        JmhResults results = JmhResults.parse(json);
        assertThat(results.scores()).hasSize(2);
        assertThat(results.find("KeyBenchmarks.ownerId"))
                .hasValue(new JmhResults.Score("KeyBenchmarks.ownerId", 41.5, 1.25, "ns/op", 136.0));
        JmhResults.Score renewer =
                results.find("LeaseRenewerBenchmarks.startAndEnd (inFlight=16)").orElseThrow();
        assertThat(renewer.error()).isNaN();
        assertThat(renewer.allocatedBytes()).isNaN();
    }

    @Test
    void emptyFileHasNoScores() {
        assertThat(JmhResults.parse("").scores()).isEmpty();
    }
}

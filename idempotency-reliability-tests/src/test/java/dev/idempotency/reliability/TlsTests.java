package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.Topologies;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Scenario 17b: Redis that accepts only TLS, configured through Spring Boot's SSL bundles. */
@ReliabilityTest
class TlsTests {

    @Test
    @Scenario(
            id = "17b",
            title = "Redis with TLS only (certificate from a CA generated at start), the application connected through"
                    + " spring.data.redis.ssl.bundle: 100 order keys sent twice, 100 tokens, 100 lock reservations",
            expected = "everything as over plain TCP: every key runs once, duplicates replayed, second token submits"
                    + " 409, locks 200")
    void theWholeContractOverTls() throws Exception {
        try (App app = App.start("127.0.0.1", 0, properties(Topologies.TLS))) {
            MixedWorkload workload = MixedWorkload.run(app, "tls-" + UUID.randomUUID(), 100);
            ReliabilityReport.measured("17b", workload.summary());
            assertThat(workload.asPromised()).as(workload.summary()).isTrue();
        }
    }

    /** A topology's Spring properties as {@code name=value} arguments of {@link App#start}. */
    static String[] properties(Topologies topology) {
        return topology.springProperties().entrySet().stream()
                .map(entry -> entry.getKey() + "=" + entry.getValue())
                .toArray(String[]::new);
    }
}

package dev.idempotency.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class LoadResultTests {

    @Test
    void parsesTheLineBothDriversPrint() {
        LoadResult result =
                LoadResult.parse("WRK_RESULT requests=50000 duration_us=10000000 errors=2 p50_us=1200 p99_us=4800");
        assertThat(result).isEqualTo(new LoadResult(50_000, 10_000_000, 2, 1_200, 4_800));
        assertThat(result.requestsPerSecond()).isEqualTo(5_000.0);
    }

    @Test
    void lineRoundTrips() {
        LoadResult result = new LoadResult(1, 2, 3, 4, 5);
        assertThat(LoadResult.parse(result.line())).isEqualTo(result);
    }

    @Test
    void rejectsIncompleteLines() {
        assertThatIllegalArgumentException().isThrownBy(() -> LoadResult.parse("WRK_RESULT requests=1"));
        assertThatIllegalArgumentException().isThrownBy(() -> LoadResult.parse("Requests/sec: 100"));
    }

    @Test
    void requestBodyIsAboutTwoHundredBytes() {
        assertThat(LoadRequest.body("r1-request-id-1-123456")).hasSizeBetween(180, 220);
    }
}

package dev.idempotency.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code release-on}: which failed outcomes a retry runs again and which it gets replayed, exactly as sent, on both
 * web stacks. The default keeps a returned 4xx and releases exceptions (also those mapped to a 4xx) and 5xx.
 */
@ParameterizedClass
@EnumSource(Stack.class)
class ReleasePolicyTests {

    @Parameter
    Stack stack;

    ReleaseController release;
    TestHttp http;

    @BeforeEach
    void setUp() {
        release = stack.bean(ReleaseController.class);
        http = new TestHttp(stack.port());
    }

    @Test
    void byDefaultAReturned4xxIsReplayed() {
        String key = UUID.randomUUID().toString();
        int before = release.runs("404");
        HttpResponse<String> first = http.post("/release/returned-4xx", "", "Idempotency-Key", key);
        HttpResponse<String> retry = http.post("/release/returned-4xx", "", "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(404);
        assertReplayOf(first, retry);
        assertThat(release.runs("404")).isEqualTo(before + 1);
    }

    @Test
    void byDefaultA4xxMappedFromAnExceptionRunsAgain() {
        String key = UUID.randomUUID().toString();
        int before = release.runs("mapped");
        HttpResponse<String> first = http.post("/release/mapped-4xx", "", "Idempotency-Key", key);
        HttpResponse<String> retry = http.post("/release/mapped-4xx", "", "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(409);
        assertThat(retry.statusCode()).isEqualTo(409);
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(release.runs("mapped")).isEqualTo(before + 2);
    }

    @Test
    void withoutClientErrorExceptionTheMapped4xxIsReplayedByteForByte() {
        String key = UUID.randomUUID().toString();
        int before = release.runs("mapped-kept");
        HttpResponse<String> first = http.post("/release/mapped-4xx-kept", "", "Idempotency-Key", key);
        HttpResponse<String> retry = http.post("/release/mapped-4xx-kept", "", "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(409);
        assertThat(first.body()).contains("urn:shop:out-of-stock");
        assertReplayOf(first, retry);
        assertThat(release.runs("mapped-kept")).isEqualTo(before + 1);
    }

    /**
     * Exceptions that carry their own status, answered by no {@code @ExceptionHandler}: Spring renders them (Spring MVC
     * through {@code sendError} and the error page, WebFlux outside every filter), and the rendered response is
     * classified like any other. WebFlux renders a bare {@code ErrorResponseException} as 500, which
     * {@code server-error} releases, so that one runs again there.
     */
    @ParameterizedTest
    @ValueSource(strings = {"status-exception", "annotated-exception", "error-response"})
    void withoutClientErrorExceptionAnExceptionWithItsOwnStatusIsClassifiedByTheResponseSpringRenders(String kind) {
        String key = UUID.randomUUID().toString();
        int before = release.runs(kind);
        HttpResponse<String> first = http.post("/release/" + kind + "-kept", "", "Idempotency-Key", key);
        HttpResponse<String> retry = http.post("/release/" + kind + "-kept", "", "Idempotency-Key", key);
        assertThat(first.body()).isNotEmpty();
        if (stack == Stack.WEBFLUX && kind.equals("error-response")) {
            assertThat(first.statusCode()).isEqualTo(500);
            assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
            assertThat(release.runs(kind)).isEqualTo(before + 2);
            return;
        }
        assertThat(first.statusCode()).isEqualTo(409);
        assertReplayOf(first, retry);
        assertThat(release.runs(kind)).isEqualTo(before + 1);
    }

    @Test
    void withoutServerErrorAReturned503IsReplayed() {
        String key = UUID.randomUUID().toString();
        int before = release.runs("503");
        HttpResponse<String> first = http.post("/release/returned-503", "", "Idempotency-Key", key);
        HttpResponse<String> retry = http.post("/release/returned-503", "", "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(503);
        assertReplayOf(first, retry);
        assertThat(release.runs("503")).isEqualTo(before + 1);
    }

    private static void assertReplayOf(HttpResponse<String> first, HttpResponse<String> retry) {
        assertThat(retry.statusCode()).isEqualTo(first.statusCode());
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(retry.headers().firstValue("Content-Type"))
                .isEqualTo(first.headers().firstValue("Content-Type"));
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
    }
}

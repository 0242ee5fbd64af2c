package dev.idempotency.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

/** Checks RFC 9457 problem responses, the shape of every error the API returns. */
final class Problems {

    private Problems() {}

    static void assertProblem(HttpResponse<String> response, int status, String type) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body())
                .contains("\"status\":" + status)
                .contains("\"type\":\"" + type + "\"")
                .contains("\"title\":")
                .contains("\"detail\":");
    }
}

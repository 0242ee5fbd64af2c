package dev.idempotency.edges;

import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.time.Duration;

/** What a duplicate of a call gets once that call is settled. */
final class Duplicates {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private Duplicates() {}

    /**
     * The answer to a duplicate ({@code POST path} with {@code Idempotency-Key: key}) once the first call's work is
     * settled: meanwhile it gets 409 request-in-progress, so poll (bounded) until it gets something else.
     */
    static HttpResponse<String> afterTheWork(TestHttp http, String path, String key) {
        HttpResponse<String>[] last = new HttpResponse[1];
        Await.until(DEADLINE, "the first call was settled", () -> {
            last[0] = http.post(path, "{}", "Idempotency-Key", key);
            return !(last[0].statusCode() == 409 && last[0].body().contains("request-in-progress"));
        });
        return last[0];
    }
}

package dev.idempotency.it;

import static dev.idempotency.it.HttpContractTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.Await;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Asynchronous handlers: the claim or lock spans the async work; the replay is the async result as sent. */
class AsyncHandlerTests extends ShopTest {

    @Autowired
    PromiseController promise;

    @Test
    void completableFutureHandlerAnswers409WhilePendingThenReplaysTheResultItSent() throws Exception {
        String key = newKey();
        String id = newKey();
        int before = promise.runs("future");
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> http.post("/promise/future/" + id, "{}", "Idempotency-Key", key));
        await(() -> promise.pending(id) != null);
        HttpResponse<String> whilePending = http.post("/promise/future/" + id, "{}", "Idempotency-Key", key);
        assertProblem(whilePending, 409);
        promise.pending(id).complete("done " + id);
        HttpResponse<String> sent = first.get(20, TimeUnit.SECONDS);
        HttpResponse<String> replay = http.post("/promise/future/" + id, "{}", "Idempotency-Key", key);
        assertThat(sent.statusCode()).isEqualTo(200);
        assertThat(sent.body()).isEqualTo("done " + id);
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo(sent.body());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(promise.runs("future")).isEqualTo(before + 1);
    }

    @Test
    void failedFutureReleasesTheClaimSoARetryRunsAgain() throws Exception {
        String key = newKey();
        String id = newKey();
        int before = promise.runs("future");
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> http.post("/promise/future/" + id, "{}", "Idempotency-Key", key));
        await(() -> promise.pending(id) != null);
        promise.takePending(id).completeExceptionally(new IllegalStateException("downstream failed"));
        assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(500);
        CompletableFuture<HttpResponse<String>> retry =
                CompletableFuture.supplyAsync(() -> http.post("/promise/future/" + id, "{}", "Idempotency-Key", key));
        await(() -> promise.pending(id) != null);
        promise.pending(id).complete("second");
        assertThat(retry.get(20, TimeUnit.SECONDS).body()).isEqualTo("second");
        assertThat(promise.runs("future")).isEqualTo(before + 2);
    }

    @Test
    void deferredResultHandlerAnswers409WhilePendingThenReplaysTheResultItSent() throws Exception {
        String key = newKey();
        String id = newKey();
        int before = promise.runs("deferred");
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> http.post("/promise/deferred/" + id, "{}", "Idempotency-Key", key));
        await(() -> promise.parkedResult(id) != null);
        assertProblem(http.post("/promise/deferred/" + id, "{}", "Idempotency-Key", key), 409);
        promise.parkedResult(id).setResult(Map.of("id", id, "state", "settled"));
        HttpResponse<String> sent = first.get(20, TimeUnit.SECONDS);
        HttpResponse<String> replay = http.post("/promise/deferred/" + id, "{}", "Idempotency-Key", key);
        assertThat(sent.statusCode()).isEqualTo(200);
        assertThat(sent.body()).contains("\"state\":\"settled\"");
        assertThat(replay.body()).isEqualTo(sent.body());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(promise.runs("deferred")).isEqualTo(before + 1);
    }

    @Test
    void lockOnAFutureIsHeldUntilTheWorkCompletes() throws Exception {
        String sku = newKey();
        CompletableFuture<HttpResponse<String>> holder =
                CompletableFuture.supplyAsync(() -> http.post("/promise/locked/" + sku, "{}"));
        await(() -> promise.pending("lock-" + sku) != null);
        HttpResponse<String> busy = http.post("/promise/locked/" + sku, "{}");
        assertProblem(busy, 409);
        assertThat(busy.body()).contains("lock-busy");
        promise.takePending("lock-" + sku).complete("reserved");
        assertThat(holder.get(20, TimeUnit.SECONDS).body()).isEqualTo("reserved");
        CompletableFuture<HttpResponse<String>> next =
                CompletableFuture.supplyAsync(() -> http.post("/promise/locked/" + sku, "{}"));
        await(() -> promise.pending("lock-" + sku) != null);
        promise.takePending("lock-" + sku).complete("again");
        assertThat(next.get(20, TimeUnit.SECONDS).statusCode())
                .as("the lock was released when the work completed")
                .isEqualTo(200);
    }

    /** Waits (bounded) until the handler has run and parked its async work. */
    private static void await(BooleanSupplier condition) {
        Await.until(Duration.ofSeconds(20), "the handler to park its async work", condition);
    }
}

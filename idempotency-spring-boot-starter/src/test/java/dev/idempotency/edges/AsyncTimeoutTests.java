package dev.idempotency.edges;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring MVC's async timeout answers the caller, but never cancels or interrupts protected work, whatever the handler
 * returns: the work runs to its end and settles as if the caller had stayed, so a retry meets it (409) and then gets
 * its replay, and a lock stays held until the work ends. Executions are counted on the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AsyncTimeoutTests {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private ConfigurableApplicationContext app;
    private TestHttp http;
    private Work work;

    @BeforeAll
    void start() {
        app = EdgeApplication.start(Stack.MVC, "spring.mvc.async.request-timeout=1s");
        http = new TestHttp(EdgeApplication.port(app));
        work = app.getBean(Work.class);
    }

    @AfterAll
    void stop() {
        app.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"orders", "callable", "web-async-task", "deferred", "mono", "mono-entity"})
    void theTimeoutAnswersRetryableAndTheWorkRunsOnToItsReplay(String handler) {
        String id = UUID.randomUUID().toString();
        String key = UUID.randomUUID().toString();
        String path = "/edge/" + handler + "/" + id;
        HttpResponse<String> timedOut = http.post(path, "{}", "Idempotency-Key", key);
        assertThat(timedOut.statusCode()).as(timedOut.body()).isEqualTo(409);
        assertThat(timedOut.body()).contains("request-in-progress");
        HttpResponse<String> duringTheWork = http.post(path, "{}", "Idempotency-Key", key);
        assertThat(duringTheWork.statusCode()).as(duringTheWork.body()).isEqualTo(409);
        assertThat(duringTheWork.body()).contains("request-in-progress");
        work.finish(id, "order " + id);
        HttpResponse<String> replay = Duplicates.afterTheWork(http, path, key);
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo("order " + id);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(work.executions(id)).isEqualTo(1);
    }

    @Test
    void aLateAnswerIsRenderedAsAnAttachedOneWouldBeThroughItsJsonView() {
        String id = UUID.randomUUID().toString();
        String key = UUID.randomUUID().toString();
        String path = "/edge/receipt/" + id;
        assertThat(http.post(path, "{}", "Idempotency-Key", key).statusCode()).isEqualTo(409);
        work.finish(id, "paid");
        HttpResponse<String> replay = Duplicates.afterTheWork(http, path, key);
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo("{\"id\":\"" + id + "\"}");
        assertThat(replay.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(work.executions(id)).isEqualTo(1);
    }

    @Test
    void aLateFailureIsRenderedByTheApplicationsExceptionHandlerAndKeptAsReleaseOnSays() {
        String id = UUID.randomUUID().toString();
        String key = UUID.randomUUID().toString();
        String path = "/edge/orders-kept/" + id;
        assertThat(http.post(path, "{}", "Idempotency-Key", key).statusCode()).isEqualTo(409);
        work.fail(id, new OutOfStock("out of stock: " + id));
        HttpResponse<String> replay = Duplicates.afterTheWork(http, path, key);
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(409);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(replay.body()).contains("out of stock: " + id);
        assertThat(work.executions(id)).isEqualTo(1);
    }

    /** A {@code StreamingResponseBody}, and an {@code SseEmitter} whose events the application's own thread sends. */
    @ParameterizedTest
    @ValueSource(strings = {"export-stream", "export-sse"})
    void aStreamingLockOutlivesTheTimeoutAndIsReleasedWhenItsWorkEnds(String handler) throws Exception {
        String sku = UUID.randomUUID().toString();
        String path = "/edge/" + handler + "/" + sku;
        HttpResponse<String> timedOut = http.post(path, "{}");
        assertThat(timedOut.statusCode()).as(timedOut.body()).isEqualTo(409);
        HttpResponse<String> meanwhile = http.post(path, "{}");
        assertThat(meanwhile.statusCode()).as(meanwhile.body()).isEqualTo(409);
        assertThat(meanwhile.body()).contains("lock-busy");
        work.finish(sku, "exported");
        CompletableFuture<HttpResponse<String>> next = CompletableFuture.supplyAsync(() -> http.post(path, "{}"));
        Await.until(DEADLINE, "the next caller got the lock", () -> work.executions(sku) == 2);
        work.finish(sku, "exported again");
        assertThat(next.get(20, TimeUnit.SECONDS).body()).contains("exported again");
        assertThat(work.mostAtOnce()).isEqualTo(1);
    }
}

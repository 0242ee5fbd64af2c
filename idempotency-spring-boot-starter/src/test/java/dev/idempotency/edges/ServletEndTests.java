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
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring MVC ends a call on its own: the server's async timeout answers while the work still runs, and a pooled
 * request thread serves the next request while async work holds a lock. Neither may run the work twice.
 */
class ServletEndTests {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Test
    void theServersAsyncTimeoutAnswersRetryableAndTheWorkRunsOnceAndIsReplayed() throws Exception {
        try (ConfigurableApplicationContext app =
                EdgeApplication.start(Stack.MVC, "spring.mvc.async.request-timeout=1s")) {
            Work work = app.getBean(Work.class);
            TestHttp http = new TestHttp(EdgeApplication.port(app));
            String id = UUID.randomUUID().toString();
            String key = UUID.randomUUID().toString();
            HttpResponse<String> timedOut = http.post("/edge/orders/" + id, "{}", "Idempotency-Key", key);
            assertThat(timedOut.statusCode())
                    .as("503 would say the work did not run; it still runs")
                    .isEqualTo(409);
            assertThat(timedOut.body()).contains("request-in-progress");
            assertThat(timedOut.headers().firstValue("Retry-After")).isPresent();
            assertThat(work.isParked(id)).isTrue();
            HttpResponse<String> duringTheWork = http.post("/edge/orders/" + id, "{}", "Idempotency-Key", key);
            assertThat(duringTheWork.statusCode()).isEqualTo(409);
            work.finish(id, "order " + id);
            HttpResponse<String>[] replay = new HttpResponse[1];
            Await.until(DEADLINE, "the work's own end settled the call", () -> {
                replay[0] = http.post("/edge/orders/" + id, "{}", "Idempotency-Key", key);
                return replay[0].statusCode() != 409;
            });
            assertThat(replay[0].statusCode()).isEqualTo(200);
            assertThat(replay[0].body()).isEqualTo("order " + id);
            assertThat(replay[0].headers().firstValue("Idempotent-Replayed")).hasValue("true");
            assertThat(work.executions(id)).isEqualTo(1);
        }
    }

    @Test
    void aLockHeldByAsyncWorkIsNotReenteredByTheNextRequestOnTheOnlyRequestThread() throws Exception {
        try (ConfigurableApplicationContext app =
                EdgeApplication.start(Stack.MVC, "server.tomcat.threads.max=1", "server.tomcat.threads.min-spare=1")) {
            Work work = app.getBean(Work.class);
            TestHttp http = new TestHttp(EdgeApplication.port(app));
            String sku = UUID.randomUUID().toString();
            CompletableFuture<HttpResponse<String>> holder =
                    CompletableFuture.supplyAsync(() -> http.post("/edge/stock/" + sku, "{}"));
            Await.until(DEADLINE, "the holder started its work", () -> work.isParked(sku));
            // Served by the one request thread, the very thread that admitted the holder.
            HttpResponse<String> second = http.post("/edge/stock/" + sku, "{}");
            assertThat(second.statusCode()).as(second.body()).isEqualTo(409);
            assertThat(second.body()).contains("lock-busy");
            work.finish(sku, "deducted");
            assertThat(holder.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(work.mostAtOnce()).isEqualTo(1);
            assertThat(work.executions(sku)).isEqualTo(1);
        }
    }
}

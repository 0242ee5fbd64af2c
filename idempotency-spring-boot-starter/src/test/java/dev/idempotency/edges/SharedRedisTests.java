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
 * Two services on one Redis with the same key prefix and an endpoint of the same route: each application's records
 * live in its own namespace (its {@code spring.application.name}), so the same client key never replays the other
 * service's answer.
 */
class SharedRedisTests {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Test
    void twoApplicationsOnOneRedisNeverShareARecord() throws Exception {
        String prefix = "shared-" + UUID.randomUUID() + ":";
        try (ConfigurableApplicationContext orders = EdgeApplication.start(
                        Stack.MVC, "idempotency.key-prefix=" + prefix, "spring.application.name=orders-svc");
                ConfigurableApplicationContext billing = EdgeApplication.start(
                        Stack.MVC, "idempotency.key-prefix=" + prefix, "spring.application.name=billing svc")) {
            String id = UUID.randomUUID().toString();
            String key = UUID.randomUUID().toString();
            assertThat(answer(orders, id, key, "charged by orders")).isEqualTo("charged by orders");
            assertThat(answer(billing, id, key, "charged by billing"))
                    .as("billing runs its own work, not a replay of orders'")
                    .isEqualTo("charged by billing");
            HttpResponse<String> replay =
                    new TestHttp(EdgeApplication.port(orders)).post("/edge/orders/" + id, "{}", "Idempotency-Key", key);
            assertThat(replay.body()).isEqualTo("charged by orders");
            assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
            assertThat(orders.getBean(Work.class).executions(id)).isEqualTo(1);
            assertThat(billing.getBean(Work.class).executions(id)).isEqualTo(1);
        }
    }

    @Test
    void anEmptyNamespaceKeepsTheKeysOfApplicationsWithoutOne() throws Exception {
        String prefix = "shared-" + UUID.randomUUID() + ":";
        try (ConfigurableApplicationContext before =
                        EdgeApplication.start(Stack.MVC, "idempotency.key-prefix=" + prefix);
                ConfigurableApplicationContext upgraded = EdgeApplication.start(
                        Stack.MVC,
                        "idempotency.key-prefix=" + prefix,
                        "spring.application.name=orders-svc",
                        "idempotency.namespace=")) {
            String id = UUID.randomUUID().toString();
            String key = UUID.randomUUID().toString();
            assertThat(answer(before, id, key, "ran before the upgrade")).isEqualTo("ran before the upgrade");
            HttpResponse<String> replay = new TestHttp(EdgeApplication.port(upgraded))
                    .post("/edge/orders/" + id, "{}", "Idempotency-Key", key);
            assertThat(replay.body())
                    .as("a record in flight is found after the upgrade")
                    .isEqualTo("ran before the upgrade");
            assertThat(upgraded.getBean(Work.class).executions(id)).isZero();
        }
    }

    /** Posts the order, lets its work answer {@code result}, and returns the body the client got. */
    private static String answer(ConfigurableApplicationContext app, String id, String key, String result)
            throws Exception {
        Work work = app.getBean(Work.class);
        TestHttp http = new TestHttp(EdgeApplication.port(app));
        CompletableFuture<HttpResponse<String>> call =
                CompletableFuture.supplyAsync(() -> http.post("/edge/orders/" + id, "{}", "Idempotency-Key", key));
        Await.until(DEADLINE, "the work started or was replayed", () -> work.isParked(id) || call.isDone());
        if (work.isParked(id)) {
            work.finish(id, result);
        }
        return call.get(20, TimeUnit.SECONDS).body();
    }
}

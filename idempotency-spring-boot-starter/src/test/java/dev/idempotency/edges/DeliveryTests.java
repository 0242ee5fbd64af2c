package dev.idempotency.edges;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.TestHttp;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Writing the answer is delivery, not the work: an answer that cannot be serialized, a representation found
 * unacceptable after the handler returned, or a client that leaves in the middle of a large download never releases
 * the key or gives a token back. The work ran once; duplicates get {@code 409 result-not-stored}. Executions are
 * counted on the server, on a real port and real Redis.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeliveryTests {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private ConfigurableApplicationContext app;
    private TestHttp http;
    private Work work;

    @BeforeAll
    void start() {
        app = EdgeApplication.start(Stack.MVC);
        http = new TestHttp(EdgeApplication.port(app));
        work = app.getBean(Work.class);
    }

    @AfterAll
    void stop() {
        app.close();
    }

    @Test
    void anAnswerThatCannotBeWrittenCompletesTheKeyAndTheRetryDoesNotRunTheWorkAgain() {
        String id = newId();
        String key = newId();
        HttpResponse<String> first = http.post("/edge/unwritable/" + id, "{}", "Idempotency-Key", key);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(500);
        HttpResponse<String> retry = Duplicates.afterTheWork(http, "/edge/unwritable/" + id, key);
        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(409);
        assertThat(retry.body()).contains("result-not-stored");
        assertThat(work.executions(id)).isEqualTo(1);
    }

    @Test
    void anAnswerFoundUnacceptableAfterTheWorkRanCompletesTheKey() {
        String id = newId();
        String key = newId();
        HttpResponse<String> first =
                http.post("/edge/quote-only/" + id, "{}", "Idempotency-Key", key, "Accept", "application/pdf");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(406);
        HttpResponse<String> retry = Duplicates.afterTheWork(http, "/edge/quote-only/" + id, key);
        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(409);
        assertThat(retry.body()).contains("result-not-stored");
        assertThat(work.executions(id)).isEqualTo(1);
    }

    @Test
    void aTokenWhoseSubmitRanIsKeptUsedWhenItsAnswerCannotBeWritten() {
        String id = newId();
        String token = http.token("POST /edge/unwritable-note/{id}");
        HttpResponse<String> first = http.post("/edge/unwritable-note/" + id, "", "Idempotency-Token", token);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(500);
        HttpResponse<String> again = http.post("/edge/unwritable-note/" + id, "", "Idempotency-Token", token);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(409);
        assertThat(again.body()).contains("token-used");
        assertThat(work.executions(id)).isEqualTo(1);
    }

    @Test
    void aLockWhoseAnswerCannotBeWrittenIsReleased() {
        String sku = newId();
        assertThat(http.post("/edge/unwritable-stock/" + sku, "{}").statusCode())
                .isEqualTo(500);
        assertThat(http.post("/edge/unwritable-stock/" + sku, "{}").statusCode())
                .isEqualTo(500);
        assertThat(work.executions(sku)).isEqualTo(2);
    }

    @Test
    void anOverSizeAnswerWhoseClientLeavesMidDownloadCompletesTheKey() throws IOException {
        String id = newId();
        String key = newId();
        try (Disconnecting client = Disconnecting.post(EdgeApplication.port(app), "/edge/export/" + id, key)) {
            client.read(16 * 1024); // then it leaves, mid-download
        }
        HttpResponse<String> retry = Duplicates.afterTheWork(http, "/edge/export/" + id, key);
        assertThat(retry.statusCode()).as("a retry runs no second export").isEqualTo(409);
        assertThat(retry.body()).contains("result-not-stored");
        assertThat(work.executions(id)).isEqualTo(1);
    }

    /**
     * Every Spring MVC way a call ends, many times over: the answer cannot be written, is unacceptable, too large to
     * keep, replayed, or its client leaves mid-download. What was held back is given back each time.
     */
    @Test
    void theHeldBytesGaugeComesBackToZeroAfterEveryWayACallEnds() throws IOException {
        Supplier<Double> held = () -> app.getBean(MeterRegistry.class)
                .get("idempotency.held.bytes")
                .gauge()
                .value();
        for (int i = 0; i < 10; i++) {
            String id = newId();
            String key = newId();
            http.post("/edge/unwritable/" + id, "{}", "Idempotency-Key", key + "u");
            http.post("/edge/quote-only/" + id, "{}", "Idempotency-Key", key + "q", "Accept", "application/pdf");
            http.post("/edge/large/" + id, "{}", "Idempotency-Key", key + "l");
            http.post("/edge/large/" + id, "{}", "Idempotency-Key", key + "l");
            http.post("/edge/payments/" + id, "{\"amount\":1}", "Idempotency-Key", key + "p", "X-Account", "a");
            http.post("/edge/payments/" + id, "{\"amount\":1}", "Idempotency-Key", key + "p", "X-Account", "a");
            try (Disconnecting client =
                    Disconnecting.post(EdgeApplication.port(app), "/edge/export/" + id, key + "e")) {
                client.read(16 * 1024);
            }
        }
        Await.until(DEADLINE, "everything held was given back", () -> held.get() == 0, () -> "held: " + held.get());
    }

    private static String newId() {
        return UUID.randomUUID().toString();
    }
}

package dev.idempotency.reactive;

import static dev.idempotency.it.HttpContractTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.ResultNotStoredException;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.TestHttp;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * WebFlux handlers of every reactive return type, on a real port and real Redis: stored as WebFlux's encoders wrote
 * them, replayed byte for byte, and protected for the whole subscription, cancellation included.
 */
class WebFluxHandlerTests {

    private static final String ORDER = "{\"item\":\"tea\",\"quantity\":2}";

    ReactiveOrdersController orders;
    ReactiveLedger ledger;
    TestHttp http;

    @BeforeEach
    void setUp() {
        orders = Stack.WEBFLUX.bean(ReactiveOrdersController.class);
        ledger = Stack.WEBFLUX.bean(ReactiveLedger.class);
        http = new TestHttp(Stack.WEBFLUX.port());
        orders.release();
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    @Test
    void monoOfResponseEntityIsStoredAndReplayedWithItsHeaders() {
        String key = newKey();
        int before = orders.runs("orders");
        HttpResponse<String> first = http.post("/reactive/orders", ORDER, "Idempotency-Key", key);
        HttpResponse<String> replay = http.post("/reactive/orders", ORDER, "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.body()).isEqualTo(first.body()).contains("\"item\":\"tea\"");
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
        for (String header : List.of("Location", "ETag", "Content-Type")) {
            assertThat(replay.headers().firstValue(header))
                    .isEqualTo(first.headers().firstValue(header));
        }
        assertThat(orders.runs("orders")).isEqualTo(before + 1);
    }

    @Test
    void monoOfAValueKeepsItsResponseStatus() {
        String key = newKey();
        HttpResponse<String> first = http.post("/reactive/carts/c9", ORDER, "Idempotency-Key", key);
        HttpResponse<String> replay = http.post("/reactive/carts/c9", ORDER, "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.body()).isEqualTo(first.body());
        assertProblem(http.post("/reactive/carts/c8", ORDER, "Idempotency-Key", key), 422);
    }

    @Test
    void fluxIsStoredAsTheWholeResponse() {
        String key = newKey();
        int before = orders.runs("batches");
        HttpResponse<String> first = http.post("/reactive/batches", ORDER, "Idempotency-Key", key);
        HttpResponse<String> replay = http.post("/reactive/batches", ORDER, "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).startsWith("[").contains("-3\"");
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(orders.runs("batches")).isEqualTo(before + 1);
    }

    @Test
    void aResponseLargerThanTheLimitIsSentWholeAndItsKeyCompletedWithoutIt() {
        String key = newKey();
        int before = orders.runs("large");
        HttpResponse<String> first = http.post("/reactive/large", "", "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body().length())
                .as("three strings of 500,000 characters")
                .isEqualTo(1_500_000);
        assertThat(first.body().charAt(1_499_999)).isEqualTo('2');
        HttpResponse<String>[] retry = new HttpResponse[1];
        Await.until(Duration.ofSeconds(10), "the first call was settled", () -> {
            retry[0] = http.post("/reactive/large", "", "Idempotency-Key", key);
            return !retry[0].body().contains("request-in-progress");
        });
        assertProblem(retry[0], 409);
        assertThat(retry[0].body()).contains("result-not-stored");
        assertThat(orders.runs("large")).as("never run again").isEqualTo(before + 1);
    }

    @Test
    void monoOfVoidIsStoredWithItsStatus() {
        String key = newKey();
        int before = orders.runs("pings");
        assertThat(http.post("/reactive/pings", "", "Idempotency-Key", key).statusCode())
                .isEqualTo(202);
        HttpResponse<String> replay = http.post("/reactive/pings", "", "Idempotency-Key", key);
        assertThat(replay.statusCode()).isEqualTo(202);
        assertThat(replay.body()).isEmpty();
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(orders.runs("pings")).isEqualTo(before + 1);
    }

    @Test
    void duplicateWhileTheFirstIsSubscribedGets409() throws Exception {
        String key = newKey();
        orders.hold();
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> http.post("/reactive/slow", "", "Idempotency-Key", key));
        assertThat(orders.awaitEntered()).isTrue();
        HttpResponse<String> duplicate = http.post("/reactive/slow", "", "Idempotency-Key", key);
        orders.release();
        assertProblem(duplicate, 409);
        assertThat(duplicate.headers().firstValue("Retry-After")).isPresent();
        assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }

    @Test
    void aClientThatGoesAwayLeavesTheWorkRunningAndItsResultIsReplayed() throws Exception {
        String key = newKey();
        StringRedisTemplate redis = Stack.WEBFLUX.bean(StringRedisTemplate.class);
        String record = Stack.WEBFLUX.bean(RedisKeys.class).requestId("", "POST /reactive/slow", key);
        int before = orders.runs("slow");
        orders.hold();
        try (Socket client = new Socket("localhost", Stack.WEBFLUX.port())) {
            OutputStream out = client.getOutputStream();
            out.write(("POST /reactive/slow HTTP/1.1\r\nHost: localhost\r\nIdempotency-Key: " + key
                            + "\r\nContent-Length: 0\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(orders.awaitEntered()).isTrue();
            assertThat(redis.hasKey(record))
                    .as("claimed while the handler waits")
                    .isTrue();
        } // the client goes away: the work runs on, detached
        assertProblem(http.post("/reactive/slow", "", "Idempotency-Key", key), 409);
        orders.release();
        HttpResponse<String>[] retry = new HttpResponse[1];
        Await.until(Duration.ofSeconds(10), "the detached work was settled", () -> {
            retry[0] = http.post("/reactive/slow", "", "Idempotency-Key", key);
            return retry[0].statusCode() != 409;
        });
        assertThat(retry[0].statusCode()).isEqualTo(200);
        assertThat(retry[0].headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(orders.runs("slow")).isEqualTo(before + 1);
    }

    @Test
    void tokenAndLockWorkOnReactiveHandlers() throws Exception {
        String token = http.token("POST /reactive/notes");
        assertThat(http.post("/reactive/notes", "", "Idempotency-Token", token).statusCode())
                .isEqualTo(201);
        assertProblem(http.post("/reactive/notes", "", "Idempotency-Token", token), 409);
        String sku = newKey();
        orders.hold();
        CompletableFuture<HttpResponse<String>> holder =
                CompletableFuture.supplyAsync(() -> http.post("/reactive/stock/" + sku, ""));
        assertThat(orders.awaitEntered()).isTrue();
        HttpResponse<String> busy = http.post("/reactive/stock/" + sku, "");
        orders.release();
        assertProblem(busy, 409);
        assertThat(holder.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(http.post("/reactive/stock/" + sku, "").statusCode())
                .as("the lock was released when the subscription ended")
                .isEqualTo(200);
    }

    @Test
    void reactiveBeanMethodsReplayTheirDecodedValues() {
        String id = newKey();
        int before = ledger.runs();
        ReactiveLedger.Entry first = ledger.record(id).block(Duration.ofSeconds(10));
        ReactiveLedger.Entry second = ledger.record(id).block(Duration.ofSeconds(10));
        assertThat(second).isEqualTo(first).isInstanceOf(ReactiveLedger.Entry.class);
        List<ReactiveLedger.Entry> all = ledger.recordAll(id).collectList().block(Duration.ofSeconds(10));
        List<ReactiveLedger.Entry> again = ledger.recordAll(id).collectList().block(Duration.ofSeconds(10));
        assertThat(again).isEqualTo(all).hasSize(2);
        assertThat(ledger.runs()).isEqualTo(before + 2);
        assertThat(ledger.leaseHeld(id).block(Duration.ofSeconds(10)))
                .as("IdempotencyContext in the Reactor context of the work")
                .isTrue();
    }

    @Test
    void aBeanFluxLongerThanTheSizeLimitCompletesItsKeyWithoutAResult() {
        String id = newKey();
        int before = ledger.runs();
        // 3 entries of 400 000 characters: about 1.2 MB of JSON, past the default max-response-size of 1 MB.
        List<ReactiveLedger.Entry> all =
                ledger.recordLarge(id, 3, 400_000).collectList().block(Duration.ofSeconds(10));
        assertThat(all).as("the caller gets every element as it comes").hasSize(3);
        assertThatThrownBy(
                        () -> ledger.recordLarge(id, 3, 400_000).collectList().block(Duration.ofSeconds(10)))
                .as("a duplicate is told the result was not kept")
                .isInstanceOf(ResultNotStoredException.class);
        List<ReactiveLedger.Entry> small =
                ledger.recordLarge(id + "-small", 3, 10).collectList().block(Duration.ofSeconds(10));
        assertThat(ledger.recordLarge(id + "-small", 3, 10).collectList().block(Duration.ofSeconds(10)))
                .as("a list under the limit is replayed")
                .isEqualTo(small);
        assertThat(ledger.runs()).as("executions").isEqualTo(before + 2);
    }
}

package dev.idempotency.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.client.ServerLedger.Exchange;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * What the client retries and how long it waits, against the order server's real answers, through RestClient and
 * WebClient alike: 409 in-progress and lock-busy, 502/503/504 are retried; 400, 422 and another 409 are not;
 * {@code max-attempts} bounds it all. The waits are recorded, not waited: each test checks the waits the client asked
 * for (the server's {@code Retry-After}, else the doubling backoff, capped by {@code max-backoff}).
 */
class RetryDecisionTests {

    private static final Map<String, Object> ORDER = Map.of("item", "book");
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final Duration BACKOFF = Duration.ofMillis(400);
    private static final Duration MAX_BACKOFF = Duration.ofMillis(1500);

    private static ServerLedger ledger;
    private static TestHttp direct;
    private static RecordedWaits waits;
    private static ConfigurableApplicationContext client;
    private static RestClient rest;
    private static WebClient web;

    @BeforeAll
    static void start() {
        ledger = OrderServer.ledger();
        direct = new TestHttp(OrderServer.port());
        waits = new RecordedWaits();
        // Four attempts, so that the backoff doubles twice: 400ms, 800ms, then 1600ms capped to 1500ms. The server's
        // Retry-After (1s for in-progress) is below the cap; a lock's (its remaining lease, ~30s) is above it.
        client = ClientApp.builder("http://127.0.0.1:" + OrderServer.port())
                .initializers(waits)
                .properties(
                        "idempotency.client.max-attempts=4",
                        "idempotency.client.backoff=" + BACKOFF.toMillis() + "ms",
                        "idempotency.client.max-backoff=" + MAX_BACKOFF.toMillis() + "ms")
                .run();
        rest = ClientApp.restClient(client);
        web = ClientApp.webClient(client);
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    @BeforeEach
    void forgetWaits() {
        waits.clear();
    }

    @ParameterizedTest
    @EnumSource
    void inProgressIsRetriedAfterTheServersRetryAfterUntilTheReplay(Client caller) throws Exception {
        String key = "slow-" + caller + "-" + System.nanoTime();
        ledger.hold();
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(
                () -> direct.post("/orders", "{\"item\":\"book\"}", "Idempotency-Key", key));
        ledger.awaitEntered();
        waits.hold();

        CompletableFuture<ResponseEntity<String>> retrying =
                CompletableFuture.supplyAsync(() -> caller.post("/orders", key, ORDER));
        waits.awaitAsked(1);
        ledger.release();
        assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
        ledger.exchanges("/orders"); // the original's exchange has ended, its response stored
        waits.release();

        ResponseEntity<String> response = retrying.get(20, TimeUnit.SECONDS);
        assertThat(response.getStatusCode().value()).isEqualTo(201);
        assertThat(response.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        assertThat(statuses("/orders", key))
                .as("the held original, the client's 409, then its replay")
                .containsExactly(201, 409, 201);
        assertThat(waits.asked()).containsExactly(Duration.ofSeconds(1));
        assertThat(ledger.runs("orders", key)).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource
    void lockBusyIsRetriedUntilTheLockIsFreeWaitingAtMostMaxBackoff(Client caller) throws Exception {
        String sku = "sku-" + caller + "-" + System.nanoTime();
        String path = "/reserve/" + sku;
        ledger.hold();
        CompletableFuture<HttpResponse<String>> holder = CompletableFuture.supplyAsync(() -> direct.post(path, ""));
        ledger.awaitEntered();
        waits.hold();

        CompletableFuture<ResponseEntity<String>> retrying =
                CompletableFuture.supplyAsync(() -> caller.post(path, null, null));
        waits.awaitAsked(1);
        ledger.release();
        assertThat(holder.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        ledger.exchanges(path); // the holder's exchange has ended, its lock released
        waits.release();

        assertThat(retrying.get(20, TimeUnit.SECONDS).getStatusCode().value()).isEqualTo(200);
        assertThat(ledger.exchanges(path)).extracting(Exchange::status).containsExactly(200, 409, 200);
        assertThat(waits.asked()).as("the lock's Retry-After, capped").containsExactly(MAX_BACKOFF);
        assertThat(ledger.runs("reserve", sku))
                .as("the holder's run and the retry's")
                .isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource
    void serviceUnavailableWaitsForRetryAfter(Client caller) {
        String key = "flaky-" + caller + "-" + System.nanoTime();
        waits.meanwhile(() -> ledger.exchanges("/flaky")); // the 503's exchange ends, its claim released

        ResponseEntity<String> response = caller.post("/flaky", key, null);

        assertThat(response.getStatusCode().value()).isEqualTo(201);
        assertThat(statuses("/flaky", key)).containsExactly(503, 201);
        assertThat(waits.asked()).as("Retry-After: 1, not the backoff").containsExactly(Duration.ofSeconds(1));
    }

    @ParameterizedTest
    @EnumSource
    void gatewayErrorsBackOffDoublingUpToMaxBackoffUntilMaxAttempts(Client caller) {
        for (int status : new int[] {502, 503, 504}) {
            String key = "down-" + status + "-" + caller + "-" + System.nanoTime();
            double exhausted = ClientApp.calls(client, "exhausted");
            waits.clear();
            waits.meanwhile(() -> ledger.exchanges("/status/" + status)); // each 5xx's claim released

            ResponseEntity<String> response = caller.post("/status/" + status, key, null);

            assertThat(response.getStatusCode().value()).isEqualTo(status);
            assertThat(statuses("/status/" + status, key)).containsExactly(status, status, status, status);
            assertThat(waits.asked())
                    .as("backoff, doubled, then doubled again but capped")
                    .containsExactly(BACKOFF, BACKOFF.multipliedBy(2), MAX_BACKOFF);
            assertThat(ClientApp.calls(client, "exhausted")).isEqualTo(exhausted + 1);
        }
    }

    @ParameterizedTest
    @EnumSource
    void payloadMismatchIsNotRetried(Client caller) {
        String key = "reused-" + caller + "-" + System.nanoTime();
        assertThat(caller.post("/orders", key, ORDER).getStatusCode().value()).isEqualTo(201);

        ResponseEntity<String> response = caller.post("/orders", key, Map.of("item", "lamp"));

        assertThat(response.getStatusCode().value()).isEqualTo(422);
        assertThat(statuses("/orders", key)).containsExactly(201, 422);
        assertThat(waits.asked()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource
    void badRequestIsNotRetried(Client caller) {
        String key = caller.name().charAt(0) + "k".repeat(300);

        ResponseEntity<String> response = caller.post("/orders", key, ORDER);

        assertThat(response.getStatusCode().value()).isEqualTo(400);
        assertThat(statuses("/orders", key)).containsExactly(400);
        assertThat(waits.asked()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource
    void anotherConflictIsNotRetriedAndKeepsItsBody(Client caller) {
        double firstTry = ClientApp.calls(client, "first_try");
        int before = ledger.exchanges("/conflict").size();

        ResponseEntity<String> response = caller.post("/conflict", null, null);

        assertThat(response.getStatusCode().value()).isEqualTo(409);
        assertThat(response.getBody()).contains("urn:shop:problem:out-of-stock", "Only 0 left");
        assertThat(ledger.exchanges("/conflict")).hasSize(before + 1);
        assertThat(waits.asked()).isEmpty();
        assertThat(ClientApp.calls(client, "first_try")).isEqualTo(firstTry + 1);
    }

    /** Larger than a problem document, and without Content-Length: read up to the limit only, so not retried. */
    @ParameterizedTest
    @EnumSource
    void aConflictLargerThanAProblemDocumentIsNotRetriedAndKeepsItsWholeBody(Client caller) {
        int before = ledger.exchanges("/conflict/large").size();

        ResponseEntity<String> response = caller.post("/conflict/large", null, null);

        assertThat(response.getStatusCode().value()).isEqualTo(409);
        assertThat(response.getHeaders().getContentLength())
                .as("no Content-Length")
                .isEqualTo(-1);
        assertThat(response.getBody()).isEqualTo(OrderController.LARGE_PROBLEM);
        assertThat(ledger.exchanges("/conflict/large")).hasSize(before + 1);
        assertThat(waits.asked()).isEmpty();
    }

    private static List<Integer> statuses(String path, String key) {
        return ledger.exchanges(path).stream()
                .filter(exchange -> key.equals(exchange.key()))
                .map(Exchange::status)
                .toList();
    }

    /** The two clients the starter covers, each making a POST whose answer, an error status too, is returned. */
    enum Client {
        REST_CLIENT {
            @Override
            ResponseEntity<String> post(String path, @Nullable String key, @Nullable Object body) {
                RestClient.RequestBodySpec request = rest.post().uri(path);
                if (key != null) {
                    request.header("Idempotency-Key", key);
                }
                if (body != null) {
                    request.body(body);
                }
                return request.retrieve()
                        .onStatus(status -> true, (req, res) -> {})
                        .toEntity(String.class);
            }
        },
        WEB_CLIENT {
            @Override
            ResponseEntity<String> post(String path, @Nullable String key, @Nullable Object body) {
                WebClient.RequestBodySpec request = web.post().uri(path);
                if (key != null) {
                    request.header("Idempotency-Key", key);
                }
                if (body != null) {
                    request.bodyValue(body);
                }
                return request.retrieve()
                        .onStatus(status -> true, res -> Mono.empty())
                        .toEntity(String.class)
                        .block(TIMEOUT);
            }
        };

        abstract ResponseEntity<String> post(String path, @Nullable String key, @Nullable Object body);
    }
}

package dev.idempotency.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * The network-fault tests again, with Boot's {@code WebClient.Builder} and its non-blocking filter. The waits between
 * attempts are real (a 20ms backoff on Reactor's timer); no test here measures them.
 */
class WebClientNetworkFaultTests {

    private static final Map<String, Object> ORDER = Map.of("item", "tea");
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private static ServerLedger ledger;
    private static ClientApp.Proxied app;
    private static DroppingProxy proxy;
    private static ConfigurableApplicationContext client;
    private static WebClient orders;

    @BeforeAll
    static void start() throws IOException {
        ledger = OrderServer.ledger();
        app = ClientApp.throughProxy(builder -> builder.properties("idempotency.client.backoff=20ms"));
        proxy = app.proxy();
        client = app.context();
        orders = ClientApp.webClient(client);
    }

    @AfterAll
    static void stop() throws IOException {
        app.close();
    }

    @Test
    void aLostReplyIsRetriedWithTheSameKeyAndReplayed() {
        double retried = ClientApp.calls(client, "retried");
        int dropped = proxy.dropped();
        proxy.dropNextResponses(1);

        ResponseEntity<String> response = orders.post()
                .uri("/orders")
                .bodyValue(ORDER)
                .retrieve()
                .toEntity(String.class)
                .block(TIMEOUT);

        assertThat(proxy.dropped()).as("the first reply was lost").isEqualTo(dropped + 1);
        assertThat(response.getStatusCode().value()).isEqualTo(201);
        assertThat(response.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        List<String> keys = ledger.orderKeys(response);
        assertThat(keys).hasSize(2);
        assertThat(keys.get(0)).matches("[A-Za-z0-9_-]{22}").isEqualTo(keys.get(1));
        assertThat(ledger.runs("orders", keys.get(0))).isEqualTo(1);
        assertThat(ClientApp.calls(client, "retried")).isEqualTo(retried + 1);
    }

    @Test
    void ioErrorsEndAfterMaxAttemptsWithTheLastError() {
        String key = "lost-web-" + System.nanoTime();
        double exhausted = ClientApp.calls(client, "exhausted");
        proxy.dropNextResponses(3);

        assertThatThrownBy(() -> orders.post()
                        .uri("/orders")
                        .header("Idempotency-Key", key)
                        .bodyValue(ORDER)
                        .retrieve()
                        .toBodilessEntity()
                        .block(TIMEOUT))
                .isInstanceOf(WebClientRequestException.class);

        assertThat(ledger.exchanges("/orders").stream().filter(exchange -> key.equals(exchange.key())))
                .hasSize(3);
        assertThat(ledger.runs("orders", key)).isEqualTo(1);
        assertThat(ClientApp.calls(client, "exhausted")).isEqualTo(exhausted + 1);
    }

    @Test
    void aConnectionLostWhileReadingA409BodyIsRetried() {
        int before = ledger.exchanges("/conflict").size();
        int cut = proxy.cut();
        double retried = ClientApp.calls(client, "retried");
        proxy.cutNextResponsesAfterHead(1);

        assertThatThrownBy(() -> orders.post()
                        .uri("/conflict")
                        .retrieve()
                        .toBodilessEntity()
                        .block(TIMEOUT))
                .as("the second answer, whole: a conflict no retry changes")
                .isInstanceOfSatisfying(
                        WebClientResponseException.Conflict.class,
                        ex -> assertThat(ex.getResponseBodyAsString()).contains("urn:shop:problem:out-of-stock"));

        assertThat(proxy.cut()).as("the first answer lost its body").isEqualTo(cut + 1);
        assertThat(ledger.exchanges("/conflict")).hasSize(before + 2);
        assertThat(ClientApp.calls(client, "retried")).isEqualTo(retried + 1);
    }

    @Test
    void aConnectionLostWhileReadingA409BodyEveryTimeEndsWithTheLastErrorAsARequestError() {
        double exhausted = ClientApp.calls(client, "exhausted");
        proxy.cutNextResponsesAfterHead(3);

        assertThatThrownBy(() -> orders.post()
                        .uri("/conflict")
                        .retrieve()
                        .toBodilessEntity()
                        .block(TIMEOUT))
                .isInstanceOf(WebClientRequestException.class);

        assertThat(ClientApp.calls(client, "exhausted")).isEqualTo(exhausted + 1);
    }
}

package dev.idempotency.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.client.ServerLedger.Exchange;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

/**
 * A lost reply, full stack: a client application calls the order server through a proxy that drops the connection
 * after the server answered. The client retries with the same key and gets the server's replay. The waits between
 * attempts are real (a 20ms backoff); no test here measures them.
 */
class RestClientNetworkFaultTests {

    private static final Map<String, Object> ORDER = Map.of("item", "book");

    private static ServerLedger ledger;
    private static ClientApp.Proxied app;
    private static DroppingProxy proxy;
    private static ConfigurableApplicationContext client;
    private static RestClient orders;

    @BeforeAll
    static void start() throws IOException {
        ledger = OrderServer.ledger();
        app = ClientApp.throughProxy(builder -> builder.properties("idempotency.client.backoff=20ms"));
        proxy = app.proxy();
        client = app.context();
        orders = ClientApp.restClient(client);
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

        ResponseEntity<String> response =
                orders.post().uri("/orders").body(ORDER).retrieve().toEntity(String.class);

        assertThat(proxy.dropped()).as("the first reply was lost").isEqualTo(dropped + 1);
        assertThat(response.getStatusCode().value()).isEqualTo(201);
        assertThat(response.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        List<String> keys = ledger.orderKeys(response);
        assertThat(keys).hasSize(2);
        assertThat(keys.get(0)).matches("[A-Za-z0-9_-]{22}").isEqualTo(keys.get(1));
        assertThat(ledger.runs("orders", keys.get(0)))
                .as("the order was placed once")
                .isEqualTo(1);
        assertThat(ClientApp.calls(client, "retried")).isEqualTo(retried + 1);
    }

    @Test
    void aCallToAHostThatIsNotListedIsNeitherKeyedNorRetried() {
        double retried = ClientApp.calls(client, "retried");
        RestClient unlisted = client.getBean(RestClient.Builder.class)
                .baseUrl(proxy.baseUrl().replace("127.0.0.1", "localhost")) // the same server, by a name not listed
                .build();
        int dropped = proxy.dropped();
        proxy.dropNextResponses(1);

        assertThatThrownBy(() ->
                        unlisted.post().uri("/orders").body(ORDER).retrieve().toEntity(String.class))
                .as("the lost reply reaches the caller: no retry")
                .isInstanceOf(ResourceAccessException.class);
        assertThat(proxy.dropped()).isEqualTo(dropped + 1);
        assertThat(ClientApp.calls(client, "retried")).isEqualTo(retried);
        List<ServerLedger.Exchange> exchanges = ledger.exchanges("/orders");
        assertThat(exchanges.get(exchanges.size() - 1).key())
                .as("no key was added")
                .isNull();
    }

    @Test
    void anHttpInterfaceClientIsCoveredAndTheCallersKeyIsKept() {
        OrdersApi api = client.getBean(OrdersApi.class);
        proxy.dropNextResponses(1);

        ResponseEntity<String> response =
                IdempotencyKeys.callWithKey("checkout-42-" + System.nanoTime(), () -> api.create(ORDER));

        assertThat(response.getStatusCode().value()).isEqualTo(201);
        assertThat(response.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        List<String> keys = ledger.orderKeys(response);
        assertThat(keys).hasSize(2).allMatch(key -> key.startsWith("checkout-42-"));
        assertThat(keys.get(0)).isEqualTo(keys.get(1));
        assertThat(ledger.runs("orders", keys.get(0))).isEqualTo(1);
    }

    @Test
    void ioErrorsEndAfterMaxAttemptsWithTheLastError() {
        String key = "lost-" + System.nanoTime();
        double exhausted = ClientApp.calls(client, "exhausted");
        proxy.dropNextResponses(3);

        assertThatThrownBy(() -> orders.post()
                        .uri("/orders")
                        .header("Idempotency-Key", key)
                        .body(ORDER)
                        .retrieve()
                        .toBodilessEntity())
                .isInstanceOf(ResourceAccessException.class);

        assertThat(ledger.exchanges("/orders").stream().filter(exchange -> key.equals(exchange.key())))
                .as("max-attempts (3) sends, all with the caller's key")
                .hasSize(3);
        assertThat(ledger.runs("orders", key))
                .as("the first ran, the others were replays")
                .isEqualTo(1);
        assertThat(ClientApp.calls(client, "exhausted")).isEqualTo(exhausted + 1);
    }

    @Test
    void aConnectionLostWhileReadingA409BodyIsRetried() {
        int before = ledger.exchanges("/conflict").size();
        int cut = proxy.cut();
        double retried = ClientApp.calls(client, "retried");
        proxy.cutNextResponsesAfterHead(1);

        assertThatThrownBy(() -> orders.post().uri("/conflict").retrieve().toBodilessEntity())
                .as("the second answer, whole: a conflict no retry changes")
                .isInstanceOfSatisfying(
                        HttpClientErrorException.Conflict.class,
                        ex -> assertThat(ex.getResponseBodyAsString()).contains("urn:shop:problem:out-of-stock"));

        assertThat(proxy.cut()).as("the first answer lost its body").isEqualTo(cut + 1);
        assertThat(ledger.exchanges("/conflict")).hasSize(before + 2);
        assertThat(ClientApp.calls(client, "retried")).isEqualTo(retried + 1);
    }

    @Test
    void methodsNotCoveredGetNoKeyAndNoRetry() {
        proxy.dropNextResponses(1);

        assertThatThrownBy(() -> orders.get().uri("/orders/count").retrieve().toBodilessEntity())
                .isInstanceOf(ResourceAccessException.class);

        List<Exchange> seen = ledger.exchanges("/orders/count");
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0).key()).isNull();
    }
}

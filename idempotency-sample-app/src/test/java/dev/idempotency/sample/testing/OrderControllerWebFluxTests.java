package dev.idempotency.sample.testing;

import dev.idempotency.autoconfigure.AutoConfigureIdempotency;
import dev.idempotency.sample.shop.OrderBook;
import dev.idempotency.sample.shop.OrderController;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The testing guide's WebFlux slice: the same controller under {@code @WebFluxTest}, protected through
 * {@code @AutoConfigureIdempotency} (records in memory), driven by {@code WebTestClient}.
 */
// tag::webflux[]
@WebFluxTest(OrderController.class)
@AutoConfigureIdempotency
@TestPropertySource(properties = "idempotency.store=in-memory")
@Import(OrderBook.class)
class OrderControllerWebFluxTests {

    @Autowired
    WebTestClient client;

    @Test
    void aRetryIsReplayedAndARequestWithoutAKeyIs400() {
        String key = UUID.randomUUID().toString();
        String order = "{\"item\":\"Espresso beans\",\"quantity\":2}";
        client.post()
                .uri("/api/orders")
                .header("Idempotency-Key", key)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(order)
                .exchange()
                .expectStatus()
                .isCreated()
                .expectHeader()
                .doesNotExist("Idempotent-Replayed");
        client.post()
                .uri("/api/orders")
                .header("Idempotency-Key", key)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(order)
                .exchange()
                .expectStatus()
                .isCreated()
                .expectHeader()
                .valueEquals("Idempotent-Replayed", "true");
        client.post()
                .uri("/api/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(order)
                .exchange()
                .expectStatus()
                .isBadRequest();
    }
}
// end::webflux[]

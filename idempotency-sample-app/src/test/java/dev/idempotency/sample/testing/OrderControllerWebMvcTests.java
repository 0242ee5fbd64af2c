package dev.idempotency.sample.testing;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.idempotency.autoconfigure.AutoConfigureIdempotency;
import dev.idempotency.sample.shop.OrderBook;
import dev.idempotency.sample.shop.OrderController;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The testing guide's Spring MVC slice: {@code @WebMvcTest} leaves the starter out, {@code @AutoConfigureIdempotency}
 * brings it in, so the controller under test is protected as in the application (records in memory).
 */
// tag::webmvc[]
@WebMvcTest(OrderController.class)
@AutoConfigureIdempotency
@TestPropertySource(properties = "idempotency.store=in-memory")
@Import(OrderBook.class)
class OrderControllerWebMvcTests {

    @Autowired
    MockMvc mvc;

    @Test
    void aRetryIsReplayed() throws Exception {
        String key = UUID.randomUUID().toString();
        String order = "{\"item\":\"Espresso beans\",\"quantity\":2}";
        mvc.perform(post("/api/orders")
                        .header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(order))
                .andExpect(status().isCreated())
                .andExpect(header().doesNotExist("Idempotent-Replayed"));
        mvc.perform(post("/api/orders")
                        .header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(order))
                .andExpect(status().isCreated())
                .andExpect(header().string("Idempotent-Replayed", "true"));
    }

    @Test
    void anotherPayloadUnderTheSameKeyIs422() throws Exception {
        String key = UUID.randomUUID().toString();
        mvc.perform(post("/api/orders")
                        .header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"item\":\"Espresso beans\",\"quantity\":2}"))
                .andExpect(status().isCreated());
        mvc.perform(post("/api/orders")
                        .header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"item\":\"Espresso beans\",\"quantity\":3}"))
                .andExpect(status().isUnprocessableContent());
    }
}
// end::webmvc[]

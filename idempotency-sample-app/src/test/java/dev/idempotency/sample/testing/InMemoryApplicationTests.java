package dev.idempotency.sample.testing;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.jayway.jsonpath.JsonPath;
import dev.idempotency.sample.shop.OrderBook;
import java.util.UUID;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

/**
 * The testing guide's first example (docs/guide/testing.md): the whole application in a {@code @SpringBootTest}, its
 * idempotency records in memory, so the test needs no Redis. It asserts what a client sees: a replay, 422 for another
 * payload under the same key, 409 for a token used twice, 400 for a request without a key.
 */
// tag::in-memory[]
@SpringBootTest(properties = "idempotency.store=in-memory")
@AutoConfigureMockMvc
class InMemoryApplicationTests {

    private static final String ORDER = "{\"item\":\"Espresso beans\",\"quantity\":2}";

    @Autowired
    MockMvc mvc;

    @Autowired
    OrderBook orders;

    @Test
    void aRetryWithTheSameKeyIsReplayedAndRunsOnce() throws Exception {
        String key = UUID.randomUUID().toString();
        int before = orders.all().size();
        MvcResult first = mvc.perform(post("/api/orders")
                        .header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(ORDER))
                .andExpect(status().isCreated())
                .andReturn();
        mvc.perform(post("/api/orders")
                        .header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(ORDER))
                .andExpect(status().isCreated())
                .andExpect(header().string("Idempotent-Replayed", "true"))
                .andExpect(content().json(first.getResponse().getContentAsString()));
        Assertions.assertThat(orders.all()).hasSize(before + 1);
    }

    @Test
    void theSameKeyWithAnotherPayloadIs422() throws Exception {
        String key = UUID.randomUUID().toString();
        mvc.perform(post("/api/orders")
                        .header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(ORDER))
                .andExpect(status().isCreated());
        mvc.perform(post("/api/orders")
                        .header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"item\":\"Tea\",\"quantity\":1}"))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.type").value("urn:idempotency:problem:payload-mismatch"));
    }

    @Test
    void aOneTimeTokenUsedTwiceIs409() throws Exception {
        String issued = mvc.perform(post("/idempotency/tokens").param("operation", "feedback"))
                .andExpect(status().isCreated())
                .andReturn()
                .getResponse()
                .getContentAsString();
        String token = JsonPath.read(issued, "$.token");
        String feedback = "{\"message\":\"Great coffee\"}";
        mvc.perform(post("/api/feedback")
                        .header("Idempotency-Token", token)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(feedback))
                .andExpect(status().isCreated());
        mvc.perform(post("/api/feedback")
                        .header("Idempotency-Token", token)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(feedback))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.type").value("urn:idempotency:problem:token-used"));
    }

    @Test
    void aRequestWithoutAKeyIs400() throws Exception {
        mvc.perform(post("/api/orders").contentType(MediaType.APPLICATION_JSON).content(ORDER))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("urn:idempotency:problem:missing-key"));
    }
}
// end::in-memory[]

package dev.idempotency.edges;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.TestHttp;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The token endpoint cannot fill Redis: a flood from one caller gets 429 with {@code Retry-After} once past its bound,
 * counted in {@code idempotency.tokens.refused}, while the protected endpoints keep answering; anonymous issuance can
 * be turned off. A token is issued for one operation (or named group) and is unknown on every other.
 */
class TokenIssuanceTests {

    private static final String NOTES = "/idempotency/tokens?operation=POST%20/edge/notes/%7Bid%7D";

    @ParameterizedTest
    @EnumSource(Stack.class)
    void aFloodOfTokenRequestsGets429PastTheBoundAndProtectedCallsGoOn(Stack stack) {
        try (ConfigurableApplicationContext app = EdgeApplication.start(
                stack, "idempotency.token.endpoint.enabled=true", "idempotency.token.endpoint.max-per-caller=5")) {
            TestHttp http = new TestHttp(EdgeApplication.port(app));
            List<Integer> statuses = new ArrayList<>();
            HttpResponse<String> refused = null;
            for (int i = 0; i < 12; i++) {
                HttpResponse<String> response = http.post(NOTES, "");
                statuses.add(response.statusCode());
                if (response.statusCode() == 429) {
                    refused = response;
                }
            }
            assertThat(statuses.subList(0, 5)).containsOnly(201);
            assertThat(statuses.subList(5, 12)).containsOnly(429);
            assertThat(refused.body()).contains("urn:idempotency:problem:too-many-tokens");
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(app.getBean(MeterRegistry.class)
                            .get("idempotency.tokens.refused")
                            .tag("reason", "caller")
                            .counter()
                            .count())
                    .isEqualTo(7);
            String id = UUID.randomUUID().toString();
            HttpResponse<String> protectedCall = http.post("/edge/large/" + id, "{}", "Idempotency-Key", id);
            assertThat(protectedCall.statusCode())
                    .as("protected endpoints keep answering")
                    .isEqualTo(200);
        }
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void anonymousIssuanceCanBeTurnedOff(Stack stack) {
        try (ConfigurableApplicationContext app = EdgeApplication.start(
                stack, "idempotency.token.endpoint.enabled=true", "idempotency.token.endpoint.anonymous=false")) {
            HttpResponse<String> refused = new TestHttp(EdgeApplication.port(app)).post(NOTES, "");
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body()).contains("urn:idempotency:problem:anonymous-not-allowed");
        }
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void aTokenIsGoodOnlyOnTheOperationItWasIssuedFor(Stack stack) {
        try (ConfigurableApplicationContext app = EdgeApplication.start(stack)) {
            TestHttp http = new TestHttp(EdgeApplication.port(app));
            Work work = app.getBean(Work.class);
            String id = UUID.randomUUID().toString();
            String forNotes = http.token("POST /edge/notes/{id}");

            HttpResponse<String> elsewhere = http.post("/edge/forms/one/" + id, "", "Idempotency-Token", forNotes);
            assertThat(elsewhere.statusCode()).as("a notes token on a form").isEqualTo(400);
            assertThat(elsewhere.body()).contains("urn:idempotency:problem:token-invalid");
            assertThat(work.executions(id)).isZero();
            assertThat(http.post("/edge/notes/" + id, "", "Idempotency-Token", forNotes)
                            .statusCode())
                    .as("the refused use did not spend it")
                    .isEqualTo(200);

            String forForms = http.token("forms");
            assertThat(http.post("/edge/notes/" + id, "", "Idempotency-Token", forForms)
                            .statusCode())
                    .isEqualTo(400);
            assertThat(http.post("/edge/forms/two/" + id, "", "Idempotency-Token", forForms)
                            .statusCode())
                    .as("good on any operation of its group")
                    .isEqualTo(200);
            assertThat(http.post("/edge/forms/one/" + id, "", "Idempotency-Token", forForms)
                            .statusCode())
                    .as("once")
                    .isEqualTo(409);
            assertThat(work.executions(id)).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void aTokenForNoOperationOrAnUnknownOneIsRefused(Stack stack) {
        try (ConfigurableApplicationContext app = EdgeApplication.start(stack)) {
            TestHttp http = new TestHttp(EdgeApplication.port(app));
            for (String path : List.of(
                    "/idempotency/tokens",
                    "/idempotency/tokens?operation=",
                    "/idempotency/tokens?operation=checkout",
                    "/idempotency/tokens?operation=POST%20/edge/orders/%7Bid%7D")) {
                HttpResponse<String> refused = http.post(path, "");
                assertThat(refused.statusCode()).as(path).isEqualTo(400);
                assertThat(refused.body())
                        .as(path)
                        .contains("urn:idempotency:problem:unknown-operation", "POST /edge/notes/{id}", "forms");
            }
            assertThat(app.getBean(MeterRegistry.class)
                            .get("idempotency.tokens.refused")
                            .tag("reason", "operation")
                            .counter()
                            .count())
                    .isEqualTo(4);
        }
    }
}

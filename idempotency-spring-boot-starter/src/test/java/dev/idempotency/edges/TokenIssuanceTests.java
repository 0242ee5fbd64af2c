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
 * be turned off.
 */
class TokenIssuanceTests {

    @ParameterizedTest
    @EnumSource(Stack.class)
    void aFloodOfTokenRequestsGets429PastTheBoundAndProtectedCallsGoOn(Stack stack) {
        try (ConfigurableApplicationContext app = EdgeApplication.start(
                stack, "idempotency.token.endpoint.enabled=true", "idempotency.token.endpoint.max-per-caller=5")) {
            TestHttp http = new TestHttp(EdgeApplication.port(app));
            List<Integer> statuses = new ArrayList<>();
            HttpResponse<String> refused = null;
            for (int i = 0; i < 12; i++) {
                HttpResponse<String> response = http.post("/idempotency/tokens", "");
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
            HttpResponse<String> refused = new TestHttp(EdgeApplication.port(app)).post("/idempotency/tokens", "");
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body()).contains("urn:idempotency:problem:anonymous-not-allowed");
        }
    }
}

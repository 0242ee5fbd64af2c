package dev.idempotency.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OpenAPI document the app serves at {@code /v3/api-docs}: springdoc's, with what the starter adds to every
 * {@code @Idempotent} operation and the token endpoint. On a real port with the app's own Redis.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiDocsTests {

    private static final String PROBLEM_SCHEMA = "#/components/schemas/IdempotencyProblem";

    @LocalServerPort
    int port;

    JsonNode docs;

    @BeforeAll
    void fetchDocs() {
        HttpResponse<String> response = new TestHttp(port).get("/v3/api-docs");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        docs = JsonMapper.builder().build().readTree(response.body());
    }

    @Test
    void ordersNeedTheKeyHeaderAndAnswerTheFourProblemsAndReplays() {
        JsonNode create = operation("/api/orders", "post");
        assertThat(headerParameter(create, "Idempotency-Key").path("required").asBoolean())
                .isTrue();
        assertProblemResponses(create, "400", "missing-key", "invalid-key");
        assertProblemResponses(create, "409", "request-in-progress");
        assertProblemResponses(create, "422", "payload-mismatch");
        assertProblemResponses(create, "503", "store-unavailable");
        assertThat(create.at("/responses/409/headers/Retry-After").isObject()).isTrue();
        assertThat(create.at("/responses/503/headers/Retry-After").isObject()).isTrue();
        assertThat(successResponses(create))
                .isNotEmpty()
                .allSatisfy(response -> assertThat(
                                response.at("/headers/Idempotent-Replayed").isObject())
                        .isTrue());
        assertThat(create.path("description").asString()).contains("within 24h");
    }

    @Test
    void paymentsTakeTheKeyFromTheBodyUnderTheirPolicy() {
        JsonNode pay = operation("/api/payments", "post");
        assertThat(headerParameter(pay, "Idempotency-Key").isMissingNode()).isTrue();
        assertProblemResponses(pay, "400", "missing-key");
        assertProblemResponses(pay, "409", "request-in-progress");
        assertProblemResponses(pay, "422", "payload-mismatch");
        assertProblemResponses(pay, "503", "store-unavailable");
        assertThat(successResponses(pay))
                .allSatisfy(response -> assertThat(
                                response.at("/headers/Idempotent-Replayed").isObject())
                        .isTrue());
        assertThat(pay.path("description").asString()).contains("`#request.paymentId`", "within 48h");
    }

    @Test
    void feedbackNeedsATokenThatWorksOnce() {
        JsonNode submit = operation("/api/feedback", "post");
        assertThat(headerParameter(submit, "Idempotency-Token").path("required").asBoolean())
                .isTrue();
        assertProblemResponses(submit, "400", "token-invalid");
        assertProblemResponses(submit, "409", "token-used");
        assertProblemResponses(submit, "503", "store-unavailable");
        assertThat(submit.at("/responses/409/headers/Retry-After").isMissingNode())
                .isTrue();
        assertThat(submit.at("/responses/422").isMissingNode()).isTrue();
    }

    @Test
    void reservationsAnswerLockBusyWithRetryAfter() {
        JsonNode reserve = operation("/api/inventory/{sku}/reserve", "post");
        assertProblemResponses(reserve, "409", "lock-busy");
        assertThat(reserve.at("/responses/409/headers/Retry-After").isObject()).isTrue();
        assertProblemResponses(reserve, "503", "store-unavailable");
        assertThat(reserve.path("description").asString()).contains("`#sku`");
    }

    @Test
    void tokenEndpointIsAnOperation() {
        JsonNode issue = operation("/idempotency/tokens", "post");
        assertThat(issue.path("operationId").asString()).isEqualTo("issueIdempotencyToken");
        assertThat(issue.at("/responses/201/content/application~1json/schema/$ref")
                        .asString())
                .isEqualTo("#/components/schemas/IdempotencyToken");
        assertThat(docs.at("/components/schemas/IdempotencyToken/properties").propertyNames())
                .containsExactlyInAnyOrder("token", "header", "expiresInSeconds");
        assertProblemResponses(issue, "503", "store-unavailable");
    }

    @Test
    void problemSchemaIsSharedAndNamesTheProblemTypes() {
        JsonNode problem = docs.at("/components/schemas/IdempotencyProblem");
        assertThat(problem.path("properties").propertyNames()).contains("type", "title", "status", "detail");
        assertThat(problem.at("/properties/type/description").asString())
                .contains("urn:idempotency:problem:request-in-progress", "urn:idempotency:problem:lock-busy");
    }

    @Test
    void unprotectedOperationsAreUntouched() {
        JsonNode list = operation("/api/orders", "get");
        assertThat(headerParameter(list, "Idempotency-Key").isMissingNode()).isTrue();
        assertThat(list.toString()).doesNotContain(PROBLEM_SCHEMA, "Idempotent-Replayed");
    }

    @Test
    void swaggerUiIsServedAndThePageLinksToIt() {
        TestHttp http = new TestHttp(port);
        assertThat(http.get(swaggerUiPage()).statusCode()).isEqualTo(200);
        assertThat(http.get("/").body()).contains("href=\"swagger-ui.html\"");
        assertThat(http.get("/swagger-ui.html").statusCode()).isIn(200, 302);
    }

    /** Where springdoc serves Swagger UI's page on this stack. */
    String swaggerUiPage() {
        return "/swagger-ui/index.html";
    }

    private JsonNode operation(String path, String method) {
        JsonNode operation = docs.path("paths").path(path).path(method);
        assertThat(operation.isObject())
                .as(method + " " + path + " in " + docs.path("paths").propertyNames())
                .isTrue();
        return operation;
    }

    private static JsonNode headerParameter(JsonNode operation, String name) {
        for (JsonNode parameter : operation.path("parameters")) {
            if ("header".equals(parameter.path("in").asString())
                    && name.equals(parameter.path("name").asString())) {
                return parameter;
            }
        }
        return JsonMapper.builder().build().missingNode();
    }

    private static List<JsonNode> successResponses(JsonNode operation) {
        List<JsonNode> successes = new ArrayList<>();
        operation.path("responses").properties().forEach(entry -> {
            if (entry.getKey().startsWith("2")) {
                successes.add(entry.getValue());
            }
        });
        return successes;
    }

    /** A problem+json response with the shared schema and an example of each of the given problem types. */
    private static void assertProblemResponses(JsonNode operation, String status, String... slugs) {
        JsonNode problemJson =
                operation.path("responses").path(status).path("content").path("application/problem+json");
        assertThat(problemJson.isObject()).as(status + " in " + operation).isTrue();
        assertThat(problemJson.at("/schema/$ref").asString()).isEqualTo(PROBLEM_SCHEMA);
        for (String slug : slugs) {
            assertThat(problemJson.at("/examples/" + slug + "/value/type").asString())
                    .isEqualTo("urn:idempotency:problem:" + slug);
        }
    }
}

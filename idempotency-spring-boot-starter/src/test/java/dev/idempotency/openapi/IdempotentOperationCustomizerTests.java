package dev.idempotency.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.web.method.HandlerMethod;

/** What each kind of {@code @Idempotent} operation is documented with, from its resolved settings. */
class IdempotentOperationCustomizerTests {

    @Test
    void requestIdWithHeaderKeyGetsTheHeaderAllFourProblemsAndTheReplayHeader() {
        document("order", operation -> {
            Parameter header = operation.getParameters().get(0);
            assertThat(header.getIn()).isEqualTo("header");
            assertThat(header.getName()).isEqualTo("Idempotency-Key");
            assertThat(header.getRequired()).isTrue();
            assertThat(operation.getResponses()).containsKeys("200", "400", "409", "422", "503");
            assertProblems(operation.getResponses().get("400"), "missing-key", "invalid-key");
            assertProblems(operation.getResponses().get("409"), "request-in-progress", "result-not-stored");
            assertProblems(operation.getResponses().get("422"), "payload-mismatch");
            assertProblems(operation.getResponses().get("503"), "store-unavailable");
            assertThat(operation.getResponses().get("409").getHeaders()).containsKey("Retry-After");
            assertThat(operation.getResponses().get("503").getHeaders()).containsKey("Retry-After");
            assertThat(operation.getResponses().get("400").getHeaders()).isNull();
            assertThat(operation.getResponses().get("200").getHeaders()).containsKey("Idempotent-Replayed");
            assertThat(operation.getDescription())
                    .startsWith("Lists nothing.")
                    .contains("REQUEST_ID", "`Idempotency-Key`", "within 24h", "422");
        });
    }

    @Test
    void requestIdWithSpelKeyHasNoHeaderAndItsPolicyShows() {
        document("pay", operation -> {
            assertThat(operation.getParameters()).isNull();
            assertThat(operation.getResponses()).containsKeys("200", "400", "409", "503");
            assertThat(operation.getResponses()).doesNotContainKey("422"); // the policy turns fingerprints off
            assertProblems(operation.getResponses().get("400"), "missing-key");
            assertThat(operation.getResponses().get("200").getHeaders()).containsKey("Idempotent-Replayed");
            assertThat(operation.getDescription()).contains("`#payment.paymentId`", "within 48h");
        });
    }

    @Test
    void tokenGetsTheTokenHeaderAndA409WithoutRetryAfter() {
        document("feedback", operation -> {
            Parameter header = operation.getParameters().get(0);
            assertThat(header.getName()).isEqualTo("Idempotency-Token");
            assertThat(header.getRequired()).isTrue();
            assertProblems(operation.getResponses().get("400"), "token-invalid");
            assertProblems(operation.getResponses().get("409"), "token-used");
            assertThat(operation.getResponses().get("409").getHeaders()).isNull();
            assertThat(operation.getResponses()).doesNotContainKey("422");
            assertThat(operation.getResponses().get("200").getHeaders()).isNull();
            assertThat(operation.getDescription())
                    .contains("`POST /idempotency/tokens`", "`operation=` this operation's method", "valid for 10m");
        });
    }

    @Test
    void lockGetsLockBusyWithRetryAfter() {
        document("reserve", operation -> {
            assertThat(operation.getParameters()).isNull();
            assertProblems(operation.getResponses().get("409"), "lock-busy");
            assertThat(operation.getResponses().get("409").getHeaders()).containsKey("Retry-After");
            assertThat(operation.getResponses()).doesNotContainKey("422");
            assertThat(operation.getResponses().get("200").getHeaders()).isNull();
            assertThat(operation.getDescription()).contains("LOCK", "`#sku`");
        });
    }

    @Test
    void duringARolloutTheKeyHeaderIsOptionalAndAMissingKeyIsNoProblem() {
        document("order", "idempotency.request-id.missing-key=proceed", operation -> {
            Parameter header = operation.getParameters().get(0);
            assertThat(header.getName()).isEqualTo("Idempotency-Key");
            assertThat(header.getRequired()).isFalse();
            assertProblems(operation.getResponses().get("400"), "invalid-key");
            assertThat(operation.getDescription()).contains("runs unprotected");
        });
    }

    @Test
    void proceedingOnStoreFailureMeansNo503() {
        document(
                "order",
                "idempotency.on-store-failure=proceed",
                operation -> assertThat(operation.getResponses())
                        .containsKeys("400", "409", "422")
                        .doesNotContainKey("503"));
    }

    @Test
    void rejectedAnonymousCallersAreA400() {
        document(
                "reserve",
                "idempotency.anonymous=reject",
                operation ->
                        assertProblems(operation.getResponses().get("400"), "missing-key", "anonymous-not-allowed"));
    }

    @Test
    void authenticatedCallersWithoutATenantAreA403() {
        document(
                "reserve",
                "idempotency.scope=tenant",
                operation -> assertProblems(operation.getResponses().get("403"), "tenant-missing"));
    }

    @Test
    void theApplicationsOwnResponseForAStatusIsKept() {
        OpenApiTestContext.runner().run(context -> {
            Operation operation = operation();
            operation.getResponses().addApiResponse("409", new ApiResponse().description("Out of stock"));
            customize(context, "reserve", operation);
            ApiResponse conflict = operation.getResponses().get("409");
            assertThat(conflict.getDescription()).startsWith("Out of stock; ");
            assertProblems(conflict, "lock-busy");
        });
    }

    @Test
    void operationsWithoutIdempotentAreLeftAlone() {
        OpenApiTestContext.runner().run(context -> {
            Operation operation = customize(context, "list", operation());
            assertThat(operation.getParameters()).isNull();
            assertThat(operation.getResponses()).containsOnlyKeys("200");
            assertThat(operation.getDescription()).isEqualTo("Lists nothing.");
        });
    }

    private static void document(String method, Consumer<Operation> assertions) {
        document(method, "idempotency.enabled=true", assertions);
    }

    private static void document(String method, String property, Consumer<Operation> assertions) {
        OpenApiTestContext.runner()
                .withPropertyValues(property)
                .run(context -> assertions.accept(customize(context, method, operation())));
    }

    /** An operation as springdoc builds it before the customizers run. */
    private static Operation operation() {
        return new Operation()
                .description("Lists nothing.")
                .responses(new ApiResponses().addApiResponse("200", new ApiResponse().description("OK")));
    }

    private static Operation customize(AssertableWebApplicationContext context, String method, Operation operation) {
        DocumentedController controller = context.getBean(DocumentedController.class);
        Method handler = Arrays.stream(DocumentedController.class.getDeclaredMethods())
                .filter(candidate -> candidate.getName().equals(method))
                .findFirst()
                .orElseThrow();
        return context.getBean(IdempotentOperationCustomizer.class)
                .customize(operation, new HandlerMethod(controller, handler));
    }

    /** The response is a problem response naming exactly these problem types. */
    private static void assertProblems(ApiResponse response, String... slugs) {
        assertThat(response).isNotNull();
        var problemJson = response.getContent().get(ProblemResponses.PROBLEM_JSON);
        assertThat(problemJson.getSchema().get$ref()).isEqualTo(ProblemResponses.SCHEMA_REF);
        assertThat(problemJson.getExamples()).containsOnlyKeys(slugs);
        for (String slug : slugs) {
            assertThat(problemJson.getExamples().get(slug).getValue().toString())
                    .contains("urn:idempotency:problem:" + slug);
        }
    }
}

package dev.idempotency.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.stacks.Stack;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.junit.jupiter.api.Test;

/** The document-wide customizers: the token endpoint operation and the shared problem schema. */
class OpenApiCustomizersTests {

    @Test
    void tokenEndpointIsDocumentedWhereItIsMapped() {
        OpenApiTestContext.runner()
                .withPropertyValues("idempotency.token.endpoint.path=/api/tokens")
                .run(context -> {
                    OpenAPI openApi = new OpenAPI();
                    context.getBean(TokenEndpointCustomizer.class).customise(openApi);
                    Operation issue = openApi.getPaths().get("/api/tokens").getPost();
                    assertThat(issue.getOperationId()).isEqualTo("issueIdempotencyToken");
                    assertThat(issue.getResponses()).containsOnlyKeys("201", "400", "429", "503");
                    assertThat(issue.getParameters()).singleElement().satisfies(operation -> {
                        assertThat(operation.getName()).isEqualTo("operation");
                        assertThat(operation.getIn()).isEqualTo("query");
                        assertThat(operation.getRequired()).isTrue();
                    });
                    assertThat(issue.getResponses()
                                    .get("201")
                                    .getContent()
                                    .get("application/json")
                                    .getSchema()
                                    .get$ref())
                            .isEqualTo("#/components/schemas/" + TokenEndpointCustomizer.SCHEMA);
                    assertThat(openApi.getComponents()
                                    .getSchemas()
                                    .get(TokenEndpointCustomizer.SCHEMA)
                                    .getProperties())
                            .containsOnlyKeys("token", "header", "expiresInSeconds");
                    assertThat(openApi.getComponents().getSchemas()).containsKey(ProblemResponses.SCHEMA);
                    assertThat(issue.getDescription()).contains("`Idempotency-Token`", "valid for 10m");
                });
    }

    @Test
    void tokenEndpointIsDocumentedOnWebFluxToo() {
        OpenAPI openApi = new OpenAPI();
        Stack.WEBFLUX.bean(TokenEndpointCustomizer.class).customise(openApi);

        Operation issue = openApi.getPaths().get("/idempotency/tokens").getPost();
        assertThat(issue.getOperationId()).isEqualTo("issueIdempotencyToken");
        assertThat(issue.getResponses()).containsOnlyKeys("201", "400", "429", "503");
        assertThat(Stack.WEBFLUX.bean(IdempotentOperationCustomizer.class)).isNotNull();
    }

    @Test
    void noTokenEndpointNoOperation() {
        OpenApiTestContext.runner()
                .withPropertyValues("idempotency.token.endpoint.enabled=false")
                .run(context -> {
                    OpenAPI openApi = new OpenAPI();
                    context.getBean(TokenEndpointCustomizer.class).customise(openApi);
                    assertThat(openApi.getPaths()).isNull();
                    assertThat(openApi.getComponents()).isNull();
                });
    }

    @Test
    void problemSchemaIsAddedWhenAnOperationRefersToIt() {
        OpenAPI openApi = document(ProblemResponses.SCHEMA_REF);
        new ProblemSchemaCustomizer().customise(openApi);
        Schema<?> problem = openApi.getComponents().getSchemas().get(ProblemResponses.SCHEMA);
        assertThat(problem.getProperties()).containsKeys("type", "title", "status", "detail");
        assertThat(problem.getRequired()).containsExactlyInAnyOrder("type", "title", "status", "detail");
        assertThat(problem.getProperties().get("type").getDescription())
                .contains("urn:idempotency:problem:missing-key", "urn:idempotency:problem:store-unavailable");
    }

    @Test
    void problemSchemaIsNotAddedToDocumentsThatDoNotUseIt() {
        OpenAPI openApi = document("#/components/schemas/Order");
        new ProblemSchemaCustomizer().customise(openApi);
        assertThat(openApi.getComponents()).isNull();
    }

    private static OpenAPI document(String ref) {
        ApiResponse response = new ApiResponse()
                .content(new Content()
                        .addMediaType("application/json", new MediaType().schema(new Schema<>().$ref(ref))));
        return new OpenAPI()
                .paths(new Paths()
                        .addPathItem(
                                "/orders",
                                new PathItem()
                                        .post(new Operation()
                                                .responses(new ApiResponses().addApiResponse("409", response)))));
    }
}

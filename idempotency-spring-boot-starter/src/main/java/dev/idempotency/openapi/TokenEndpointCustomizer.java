package dev.idempotency.openapi;

import dev.idempotency.internal.http.Problem;
import dev.idempotency.internal.http.TokenOperations;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;

/**
 * Documents the token endpoint as {@code POST ${idempotency.token.endpoint.path}} when it is mapped, on Spring MVC and
 * WebFlux alike. It is registered programmatically, not as a controller bean, so springdoc does not find it by itself.
 */
public final class TokenEndpointCustomizer implements GlobalOpenApiCustomizer {

    /** Name of the token response schema in {@code components.schemas}. */
    static final String SCHEMA = "IdempotencyToken";

    private final Supplier<Optional<String>> mappedPath;
    private final String header;
    private final Duration ttl;
    private final boolean rejectAnonymous;

    /**
     * @param mappedPath the path the endpoint is mapped at, asked when the document is built; empty when it is not
     * @param header the header tokens are sent in
     * @param ttl how long an issued token is valid
     * @param rejectAnonymous whether anonymous callers get 400
     */
    public TokenEndpointCustomizer(
            Supplier<Optional<String>> mappedPath, String header, Duration ttl, boolean rejectAnonymous) {
        this.mappedPath = mappedPath;
        this.header = header;
        this.ttl = ttl;
        this.rejectAnonymous = rejectAnonymous;
    }

    @Override
    public void customise(OpenAPI openApi) {
        Optional<String> path = mappedPath.get();
        if (path.isEmpty()) {
            return;
        }
        if (openApi.getComponents() == null) {
            openApi.setComponents(new Components());
        }
        openApi.getComponents().addSchemas(SCHEMA, tokenSchema());
        // The 503 refers to it; the other customizer may have run already.
        ProblemResponses.registerSchema(openApi.getComponents());
        if (openApi.getPaths() == null) {
            openApi.setPaths(new Paths());
        }
        PathItem item = openApi.getPaths().computeIfAbsent(path.get(), p -> new PathItem());
        item.setPost(operation());
    }

    private Operation operation() {
        ApiResponses responses = new ApiResponses()
                .addApiResponse(
                        "201",
                        new ApiResponse()
                                .description("A new token")
                                .content(new Content()
                                        .addMediaType(
                                                org.springframework.http.MediaType.APPLICATION_JSON_VALUE,
                                                new MediaType()
                                                        .schema(new Schema<>()
                                                                .$ref("#/components/schemas/" + SCHEMA)))));
        ProblemResponses.document(
                responses,
                400,
                rejectAnonymous
                        ? List.of(Problem.UNKNOWN_OPERATION, Problem.ANONYMOUS)
                        : List.of(Problem.UNKNOWN_OPERATION));
        ProblemResponses.document(responses, 429, List.of(Problem.TOO_MANY_TOKENS));
        ProblemResponses.document(responses, 503, List.of(Problem.STORE_UNAVAILABLE));
        return new Operation()
                .operationId("issueIdempotencyToken")
                .addTagsItem("idempotency")
                .summary("Issue a one-time idempotency token")
                .description("Issues a token for the `" + header + "` header of the `TOKEN` operation named by "
                        + "`operation`. It is valid for " + OperationDescriptions.format(ttl)
                        + ", works once, and only on that operation and for the caller it was issued to.")
                .addParametersItem(new Parameter()
                        .in("query")
                        .name(TokenOperations.PARAMETER)
                        .required(true)
                        .description("The operation the token is for: its `@Idempotent(operation)` name, or its method"
                                + " and route, such as `POST /feedback`")
                        .schema(new StringSchema()))
                .responses(responses);
    }

    private Schema<?> tokenSchema() {
        return new ObjectSchema()
                .description("A one-time token and how to send it")
                .addProperty("token", new StringSchema().description("The token"))
                .addProperty(
                        "header",
                        new StringSchema()
                                .description("The header to send it in")
                                ._default(header))
                .addProperty(
                        "expiresInSeconds",
                        new IntegerSchema().format("int64").description("Seconds until the token expires"))
                .required(List.of("token", "header", "expiresInSeconds"));
    }
}

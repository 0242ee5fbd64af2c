package dev.idempotency.openapi;

import dev.idempotency.internal.http.Problem;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The RFC 9457 problem responses of the HTTP contract as OpenAPI objects: one shared schema in
 * {@code components.schemas}, and per status a response that names the problem {@code type} URNs, with an example of
 * each and {@code Retry-After} where a later attempt may succeed.
 */
final class ProblemResponses {

    /** Name of the shared schema in {@code components.schemas}. */
    static final String SCHEMA = "IdempotencyProblem";

    static final String SCHEMA_REF = "#/components/schemas/" + SCHEMA;

    static final String PROBLEM_JSON = "application/problem+json";

    private ProblemResponses() {}

    /** Adds the shared problem schema unless the document has it already. */
    static void registerSchema(Components components) {
        if (components.getSchemas() == null || !components.getSchemas().containsKey(SCHEMA)) {
            components.addSchemas(SCHEMA, schema());
        }
    }

    static Schema<?> schema() {
        String types = Arrays.stream(Problem.values())
                .map(problem -> "`" + problem.type() + "`")
                .collect(Collectors.joining(", "));
        return new ObjectSchema()
                .description("RFC 9457 problem details of an idempotency outcome")
                .addProperty(
                        "type",
                        new StringSchema()
                                .format("uri")
                                .description("What went wrong; the idempotency outcomes are " + types))
                .addProperty("title", new StringSchema().description("Short summary of the problem type"))
                .addProperty("status", new IntegerSchema().description("The HTTP status code"))
                .addProperty("detail", new StringSchema().description("What happened to this request"))
                .addProperty("instance", new StringSchema().format("uri-reference"))
                .required(List.of("type", "title", "status", "detail"));
    }

    /**
     * Documents {@code problems} (all of one status) on {@code responses}. A response the application documents for
     * that status already is kept; the problems are added to it.
     */
    static void document(ApiResponses responses, int status, List<Problem> problems) {
        String code = Integer.toString(status);
        String summary = problems.stream().map(Problem::title).collect(Collectors.joining("; "));
        ApiResponse response = responses.get(code);
        if (response == null) {
            response = new ApiResponse().description(summary);
            responses.addApiResponse(code, response);
        } else {
            response.setDescription(
                    response.getDescription() == null ? summary : response.getDescription() + "; " + summary);
        }
        if (response.getContent() == null) {
            response.setContent(new Content());
        }
        MediaType problemJson = response.getContent()
                .computeIfAbsent(PROBLEM_JSON, type -> new MediaType().schema(new Schema<>().$ref(SCHEMA_REF)));
        problems.forEach(problem -> problemJson.addExamples(problem.slug(), example(problem)));
        String retried = problems.stream()
                .filter(OperationProblems.RETRY_AFTER::contains)
                .map(Problem::slug)
                .collect(Collectors.joining(", "));
        if (!retried.isEmpty()) {
            response.addHeaderObject(
                    "Retry-After",
                    new Header()
                            .description("Seconds to wait before retrying; sent with " + retried)
                            .schema(new IntegerSchema().minimum(BigDecimal.ONE)));
        }
    }

    private static Example example(Problem problem) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.type().toString());
        body.put("title", problem.title());
        body.put("status", problem.status());
        body.put("detail", problem.title());
        return new Example().summary(problem.title()).value(body);
    }
}

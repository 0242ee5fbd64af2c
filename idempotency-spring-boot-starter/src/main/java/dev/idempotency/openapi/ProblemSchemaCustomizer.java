package dev.idempotency.openapi;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.util.List;
import java.util.Objects;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;

/**
 * Adds the shared problem schema to {@code components.schemas} when an operation refers to it. Runs after the
 * operations are built (and after springdoc dropped the schemas nothing referred to), so the schema is there exactly
 * when the document needs it.
 */
public final class ProblemSchemaCustomizer implements GlobalOpenApiCustomizer {

    @Override
    public void customise(OpenAPI openApi) {
        if (!refersToProblemSchema(openApi)) {
            return;
        }
        if (openApi.getComponents() == null) {
            openApi.setComponents(new Components());
        }
        ProblemResponses.registerSchema(openApi.getComponents());
    }

    private static boolean refersToProblemSchema(OpenAPI openApi) {
        if (openApi.getPaths() == null) {
            return false;
        }
        return openApi.getPaths().values().stream()
                .map(PathItem::readOperations)
                .flatMap(List::stream)
                .map(Operation::getResponses)
                .filter(Objects::nonNull)
                .flatMap(responses -> responses.values().stream())
                .map(ApiResponse::getContent)
                .filter(Objects::nonNull)
                .flatMap(content -> content.values().stream())
                .map(MediaType::getSchema)
                .filter(Objects::nonNull)
                .anyMatch(schema -> ProblemResponses.SCHEMA_REF.equals(schema.get$ref()));
    }
}

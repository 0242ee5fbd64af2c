package dev.idempotency.openapi;

import dev.idempotency.Strategy;
import dev.idempotency.internal.http.Problem;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.OperationSpec;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springframework.web.method.HandlerMethod;

/**
 * Documents every {@code @Idempotent} handler operation from its resolved settings (the same ones the interceptor
 * applies, so policies and properties show): the key or token header, the problem responses it can answer with
 * {@code Retry-After} where one is sent, {@code Idempotent-Replayed} on the success responses of {@code REQUEST_ID},
 * and a paragraph with the TTL. Operations without {@code @Idempotent} are left as they are.
 */
public final class IdempotentOperationCustomizer implements GlobalOperationCustomizer {

    private final OperationRegistry registry;
    private final String tokenPath;
    private final boolean rejectAnonymous;
    private final boolean rejectTenantless;

    /**
     * @param registry the resolved {@code @Idempotent} operations
     * @param tokenPath where the token endpoint issues tokens
     * @param rejectAnonymous whether anonymous callers get 400
     * @param rejectTenantless whether authenticated callers without a tenant get 403
     */
    IdempotentOperationCustomizer(
            OperationRegistry registry, String tokenPath, boolean rejectAnonymous, boolean rejectTenantless) {
        this.registry = registry;
        this.tokenPath = tokenPath;
        this.rejectAnonymous = rejectAnonymous;
        this.rejectTenantless = rejectTenantless;
    }

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        OperationSpec spec = registry.find(handler.getMethod(), handler.getBeanType());
        if (spec == null) {
            return operation;
        }
        if (spec.key() == null) {
            addHeader(operation, spec);
        }
        if (operation.getResponses() == null) {
            operation.setResponses(new ApiResponses());
        }
        if (spec.strategy() == Strategy.REQUEST_ID) {
            markReplays(operation.getResponses());
        }
        for (Map.Entry<Integer, List<Problem>> byStatus :
                OperationProblems.of(spec, rejectAnonymous, rejectTenantless).entrySet()) {
            ProblemResponses.document(operation.getResponses(), byStatus.getKey(), byStatus.getValue());
        }
        String paragraph = OperationDescriptions.of(spec, tokenPath);
        operation.setDescription(
                operation.getDescription() == null ? paragraph : operation.getDescription() + "\n\n" + paragraph);
        return operation;
    }

    /** The key or token header, unless the application documents it already. */
    private void addHeader(Operation operation, OperationSpec spec) {
        List<Parameter> parameters = operation.getParameters();
        if (parameters != null
                && parameters.stream()
                        .anyMatch(
                                p -> "header".equals(p.getIn()) && spec.header().equalsIgnoreCase(p.getName()))) {
            return;
        }
        operation.addParametersItem(new HeaderParameter()
                .name(spec.header())
                // missing-key: proceed (a rollout) runs a call without the key, unprotected: the header is optional.
                .required(!spec.proceedWithoutKey())
                .description(
                        spec.strategy() == Strategy.TOKEN
                                ? "One-time token from `POST " + tokenPath + "`; it works once"
                                : "Client-chosen key, unique per logical request and reused on every retry of it")
                .schema(new StringSchema().minLength(1)));
    }

    private static void markReplays(ApiResponses responses) {
        responses.forEach((code, response) -> {
            if (code.startsWith("2")) {
                response.addHeaderObject(
                        ReplayedHeaders.REPLAYED,
                        new Header()
                                .description("`true` when this is the stored response of an earlier request with the"
                                        + " same key, replayed without running the operation again")
                                .schema(new StringSchema()._enum(List.of("true"))));
            }
        });
    }
}

package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.Routes;
import dev.idempotency.internal.operation.OperationSpec;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/** The {@link Routes operation} of a Spring MVC request. */
final class RouteOperations {

    private final Routes routes;

    RouteOperations(ObjectProvider<RequestMappingHandlerMapping> mappings) {
        this.routes = new Routes(() -> mappings.orderedStream()
                .flatMap(mapping -> mapping.getHandlerMethods().entrySet().stream())
                .map(entry -> Routes.Mapping.of(
                        entry.getKey().getMethodsCondition().getMethods(),
                        entry.getKey().getPatternValues(),
                        entry.getValue().getMethod())));
    }

    /** The routes behind {@link #of}, which also name the operations tokens are issued for. */
    Routes routes() {
        return routes;
    }

    String of(HttpServletRequest request, OperationSpec spec) {
        Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        return routes.operation(
                request.getMethod(), pattern != null ? pattern.toString() : request.getRequestURI(), spec);
    }
}

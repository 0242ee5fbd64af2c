package dev.idempotency.web.reactive;

import dev.idempotency.internal.http.Routes;
import dev.idempotency.internal.operation.OperationSpec;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;

/** The {@link Routes operation} of a WebFlux exchange: the same text as Spring MVC gives the same route. */
final class ExchangeRoutes {

    private final Routes routes;

    ExchangeRoutes(ObjectProvider<RequestMappingHandlerMapping> mappings) {
        this.routes = new Routes(() -> mappings.orderedStream()
                .flatMap(mapping -> mapping.getHandlerMethods().entrySet().stream())
                .map(entry -> Routes.Mapping.of(
                        entry.getKey().getMethodsCondition().getMethods(),
                        entry.getKey().getPatternsCondition().getPatterns().stream()
                                .map(PathPattern::getPatternString)
                                .collect(Collectors.toSet()),
                        entry.getValue().getMethod())));
    }

    /** The routes behind {@link #of}, which also name the operations tokens are issued for. */
    Routes routes() {
        return routes;
    }

    String of(ServerWebExchange exchange, OperationSpec spec) {
        PathPattern pattern = exchange.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        return routes.operation(
                exchange.getRequest().getMethod().name(),
                pattern != null
                        ? pattern.getPatternString()
                        : exchange.getRequest().getPath().value(),
                spec);
    }
}

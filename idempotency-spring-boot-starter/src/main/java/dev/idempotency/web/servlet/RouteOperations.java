package dev.idempotency.web.servlet;

import dev.idempotency.internal.operation.OperationSpec;
import jakarta.servlet.http.HttpServletRequest;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The operation an HTTP call's keys are scoped by: its method and route pattern ({@code POST /orders/{id}}). When two
 * handler methods share a route (told apart by headers, parameters or media types), the handler method is added, so
 * they never share records.
 */
final class RouteOperations {

    private final ObjectProvider<RequestMappingHandlerMapping> mappings;
    private volatile @Nullable Set<String> sharedRoutes;

    RouteOperations(ObjectProvider<RequestMappingHandlerMapping> mappings) {
        this.mappings = mappings;
    }

    String of(HttpServletRequest request, OperationSpec spec) {
        Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        String route = request.getMethod() + " " + (pattern != null ? pattern : request.getRequestURI());
        return sharedRoutes().contains(route) ? route + " " + spec.id() : route;
    }

    private Set<String> sharedRoutes() {
        Set<String> known = sharedRoutes;
        if (known == null) {
            known = findSharedRoutes();
            sharedRoutes = known;
        }
        return known;
    }

    /** Routes served by more than one handler method; a mapping without methods serves every method. */
    private Set<String> findSharedRoutes() {
        Map<String, Set<Object>> handlers = new HashMap<>();
        mappings.orderedStream().forEach(mapping -> {
            for (Map.Entry<RequestMappingInfo, HandlerMethod> entry :
                    mapping.getHandlerMethods().entrySet()) {
                Set<RequestMethod> methods =
                        entry.getKey().getMethodsCondition().getMethods();
                Set<RequestMethod> served = methods.isEmpty() ? Set.of(RequestMethod.values()) : methods;
                for (String pattern : entry.getKey().getPatternValues()) {
                    for (RequestMethod method : served) {
                        handlers.computeIfAbsent(method.name() + " " + pattern, route -> new HashSet<>())
                                .add(entry.getValue().getMethod());
                    }
                }
            }
        });
        Set<String> shared = new HashSet<>();
        handlers.forEach((route, methods) -> {
            if (methods.size() > 1) {
                shared.add(route);
            }
        });
        return Set.copyOf(shared);
    }
}

package dev.idempotency.internal.http;

import dev.idempotency.internal.operation.OperationSpec;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.RequestMethod;

/**
 * The operation an HTTP call's keys are scoped by: its method and route pattern ({@code POST /orders/{id}}), the same
 * text on Spring MVC and WebFlux. When two handler methods share a route (told apart by headers, parameters or media
 * types), the handler method is added, so they never share records.
 */
public final class Routes {

    private final Supplier<Stream<Mapping>> mappings;
    private volatile @Nullable Set<String> sharedRoutes;

    /** @param mappings the application's request mappings, read once on first use (after startup) */
    public Routes(Supplier<Stream<Mapping>> mappings) {
        this.mappings = mappings;
    }

    /** The operation of a call of {@code spec} that matched {@code pattern}. */
    public String operation(String method, String pattern, OperationSpec spec) {
        String route = method + " " + pattern;
        return sharedRoutes().contains(route) ? route + " " + spec.id() : route;
    }

    /**
     * The operations that calls of the mapped handler methods {@code selected} accepts are named by: the name given
     * with {@code @Idempotent(operation)}, else each route of the handler, as {@link #operation} names it.
     *
     * @param specs the operation of a handler method, or {@code null} when it has none
     */
    public Set<String> operations(Function<Method, @Nullable OperationSpec> specs, Predicate<OperationSpec> selected) {
        Set<String> operations = new TreeSet<>();
        mappings.get().forEach(mapping -> {
            OperationSpec spec = specs.apply(mapping.handler());
            if (spec == null || !selected.test(spec)) {
                return;
            }
            if (spec.explicitId()) {
                operations.add(spec.id());
                return;
            }
            mapping.patterns()
                    .forEach(pattern ->
                            mapping.methods().forEach(method -> operations.add(operation(method, pattern, spec))));
        });
        return Collections.unmodifiableSet(operations);
    }

    /** The mapped handler methods. */
    public Set<Method> handlers() {
        return mappings.get().map(Mapping::handler).collect(Collectors.toUnmodifiableSet());
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
        Map<String, Set<Method>> handlers = new HashMap<>();
        mappings.get().forEach(mapping -> {
            for (String pattern : mapping.patterns()) {
                for (String method : mapping.methods()) {
                    handlers.computeIfAbsent(method + " " + pattern, route -> new HashSet<>())
                            .add(mapping.handler());
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

    /**
     * One request mapping.
     *
     * @param methods the HTTP methods it serves (every method when its mapping names none)
     * @param patterns its route patterns
     * @param handler the handler method
     */
    public record Mapping(Set<String> methods, Set<String> patterns, Method handler) {

        /** A mapping as Spring's request mapping infos name its methods: none stands for every method. */
        public static Mapping of(Set<RequestMethod> methods, Set<String> patterns, Method handler) {
            return new Mapping(
                    (methods.isEmpty() ? Arrays.stream(RequestMethod.values()) : methods.stream())
                            .map(RequestMethod::name)
                            .collect(Collectors.toSet()),
                    patterns,
                    handler);
        }
    }
}

package dev.idempotency.internal.http;

import dev.idempotency.Strategy;
import dev.idempotency.UnknownOperationException;
import dev.idempotency.internal.operation.OperationRegistry;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * What a token can be issued for: the {@code TOKEN} operations of the application, named as their submits are: a
 * handler by {@code @Idempotent(operation)}, which several handlers may share as a group, or else by its route, such as
 * {@code POST /feedback}; any other bean method (a Kafka listener) by its operation. A token issued for one is unknown
 * on every other, so a token fetched for one form cannot be spent on another. Read once, on the first request, when
 * every mapping exists.
 */
public final class TokenOperations {

    /** The query parameter of the token endpoint that names the operation a token is for. */
    public static final String PARAMETER = "operation";

    private final OperationRegistry registry;
    private final Routes routes;
    private volatile @Nullable Set<String> names;

    public TokenOperations(OperationRegistry registry, Routes routes) {
        this.registry = registry;
        this.routes = routes;
    }

    /**
     * The operation a token is requested for, as the client named it.
     *
     * @throws UnknownOperationException when none is named, or no {@code TOKEN} operation has that name
     */
    public String require(@Nullable String requested) {
        Set<String> known = names();
        if (requested == null || requested.isBlank()) {
            throw new UnknownOperationException(
                    "Name the operation the token is for with the 'operation' parameter; this application's TOKEN "
                            + "operations are " + known);
        }
        String operation = requested.trim();
        if (!known.contains(operation)) {
            throw new UnknownOperationException("'" + operation
                    + "' is not a TOKEN operation of this application; its TOKEN operations are " + known);
        }
        return operation;
    }

    private Set<String> names() {
        Set<String> known = names;
        if (known == null) {
            Set<String> all = new TreeSet<>(routes.operations(
                    method -> registry.find(method, method.getDeclaringClass()),
                    spec -> spec.strategy() == Strategy.TOKEN));
            Set<Method> handlers = routes.handlers();
            registry.operations().stream()
                    .filter(spec -> spec.strategy() == Strategy.TOKEN && !handlers.contains(spec.method()))
                    .forEach(spec -> all.add(spec.id()));
            known = Collections.unmodifiableSet(all);
            names = known;
        }
        return known;
    }
}

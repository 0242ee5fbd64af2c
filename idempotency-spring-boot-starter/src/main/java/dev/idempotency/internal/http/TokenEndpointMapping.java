package dev.idempotency.internal.http;

import dev.idempotency.internal.operation.OperationRegistry;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Maps the token endpoint once every operation is known: when the application has a {@code TOKEN} operation, or when
 * {@code idempotency.token.endpoint.enabled=true} asks for it. An application without tokens then exposes no endpoint
 * that writes to Redis. Each web stack says how a handler method is mapped.
 */
public abstract class TokenEndpointMapping implements SmartInitializingSingleton {

    private final OperationRegistry operations;
    private final String path;
    private final @Nullable Boolean enabled;
    private volatile @Nullable String mappedPath;

    protected TokenEndpointMapping(OperationRegistry operations, String path, @Nullable Boolean enabled) {
        this.operations = operations;
        this.path = path;
        this.enabled = enabled;
    }

    @Override
    public final void afterSingletonsInstantiated() {
        if ((enabled != null ? enabled : operations.usesTokens()) && map(path)) {
            mappedPath = path;
        }
    }

    /** The path the endpoint is mapped at, once mapped; empty when it is not (no {@code TOKEN} operation). */
    public Optional<String> mappedPath() {
        return Optional.ofNullable(mappedPath);
    }

    /** Maps {@code POST path}, producing JSON, to the stack's endpoint; {@code false} when the stack has no mapping. */
    protected abstract boolean map(String path);

    /** The public method {@code name} of {@code type}, which must exist once. */
    protected static Method handler(Class<?> type, String name) {
        return Arrays.stream(type.getMethods())
                .filter(method -> method.getName().equals(name))
                .reduce((first, second) -> {
                    throw new IllegalStateException(type.getName() + " has more than one method " + name);
                })
                .orElseThrow(() -> new IllegalStateException(type.getName() + " has no public method " + name));
    }
}

package dev.idempotency.web.servlet;

import dev.idempotency.Strategy;
import dev.idempotency.internal.operation.OperationRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Maps the token endpoint once every operation is known: when the application has a {@code TOKEN} operation, or when
 * {@code idempotency.token.endpoint.enabled=true} asks for it. An application without tokens then exposes no endpoint
 * that writes to Redis.
 */
final class TokenEndpointRegistrar implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(TokenEndpointRegistrar.class);

    private final OperationRegistry operations;
    private final ObjectProvider<RequestMappingHandlerMapping> mappings;
    private final TokenEndpoint endpoint;
    private final String path;
    private final @Nullable Boolean enabled;

    TokenEndpointRegistrar(
            OperationRegistry operations,
            ObjectProvider<RequestMappingHandlerMapping> mappings,
            TokenEndpoint endpoint,
            String path,
            @Nullable Boolean enabled) {
        this.operations = operations;
        this.mappings = mappings;
        this.endpoint = endpoint;
        this.path = path;
        this.enabled = enabled;
    }

    @Override
    public void afterSingletonsInstantiated() {
        RequestMappingHandlerMapping mapping = mappings.getIfAvailable();
        if (mapping == null || !shouldMap()) {
            return;
        }
        RequestMappingInfo info = RequestMappingInfo.paths(path)
                .methods(RequestMethod.POST)
                .produces(MediaType.APPLICATION_JSON_VALUE)
                .options(mapping.getBuilderConfiguration())
                .build();
        try {
            mapping.registerMapping(info, endpoint, TokenEndpoint.class.getMethod("issue"));
        } catch (NoSuchMethodException ex) {
            throw new IllegalStateException(ex);
        }
        log.debug("Token endpoint mapped at POST {}", path);
    }

    boolean shouldMap() {
        if (enabled != null) {
            return enabled;
        }
        return operations.operations().stream().anyMatch(spec -> spec.strategy() == Strategy.TOKEN);
    }
}

package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.TokenEndpointMapping;
import dev.idempotency.internal.operation.OperationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/** Maps the Spring MVC token endpoint, on the rule of {@link TokenEndpointMapping}. */
final class TokenEndpointRegistrar extends TokenEndpointMapping {

    private final ObjectProvider<RequestMappingHandlerMapping> mappings;
    private final TokenEndpoint endpoint;

    TokenEndpointRegistrar(
            OperationRegistry operations,
            ObjectProvider<RequestMappingHandlerMapping> mappings,
            TokenEndpoint endpoint,
            String path,
            @Nullable Boolean enabled) {
        super(operations, path, enabled);
        this.mappings = mappings;
        this.endpoint = endpoint;
    }

    @Override
    protected boolean map(String path) {
        RequestMappingHandlerMapping mapping = mappings.getIfAvailable();
        if (mapping == null) {
            return false;
        }
        mapping.registerMapping(
                RequestMappingInfo.paths(path)
                        .methods(RequestMethod.POST)
                        .produces(MediaType.APPLICATION_JSON_VALUE)
                        .options(mapping.getBuilderConfiguration())
                        .build(),
                endpoint,
                handler(TokenEndpoint.class, "issue"));
        return true;
    }
}

package dev.idempotency.web.reactive;

import dev.idempotency.internal.http.TokenEndpointMapping;
import dev.idempotency.internal.operation.OperationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/** Maps the WebFlux token endpoint, on the rule of {@link TokenEndpointMapping}. */
final class ReactiveTokenEndpointRegistrar extends TokenEndpointMapping {

    private final ObjectProvider<RequestMappingHandlerMapping> mappings;
    private final ReactiveTokenEndpoint endpoint;

    ReactiveTokenEndpointRegistrar(
            OperationRegistry operations,
            ObjectProvider<RequestMappingHandlerMapping> mappings,
            ReactiveTokenEndpoint endpoint,
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
        RequestMappingInfo.BuilderConfiguration options = new RequestMappingInfo.BuilderConfiguration();
        options.setPatternParser(mapping.getPathPatternParser());
        mapping.registerMapping(
                RequestMappingInfo.paths(path)
                        .methods(RequestMethod.POST)
                        .produces(MediaType.APPLICATION_JSON_VALUE)
                        .options(options)
                        .build(),
                endpoint,
                handler(ReactiveTokenEndpoint.class, "issue"));
        return true;
    }
}

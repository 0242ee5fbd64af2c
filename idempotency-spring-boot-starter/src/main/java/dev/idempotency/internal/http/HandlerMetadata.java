package dev.idempotency.internal.http;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedMethod;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;

/**
 * What of a handler method's request is payload, read once per method: where its body is (a {@code @RequestBody}
 * parameter, also when the annotation sits on an interface the controller implements, as in generated OpenAPI
 * controllers, or an {@link HttpEntity} / {@code RequestEntity} parameter), and the headers it binds with
 * {@code @RequestHeader} (by name; a parameter that binds every header, a {@code Map} or {@code HttpHeaders}, is
 * left out, as such headers change from one attempt to the next).
 *
 * @param bodyIndex position of the body parameter, or -1
 * @param entity whether that parameter is an {@link HttpEntity}, whose body is the payload
 * @param headers the lower-case names of the headers bound one by one
 */
public record HandlerMetadata(int bodyIndex, boolean entity, List<String> headers) {

    public static HandlerMetadata of(Method method) {
        MethodParameter[] parameters = new AnnotatedMethod(method).getMethodParameters();
        int bodyIndex = -1;
        boolean entity = false;
        List<String> headers = new ArrayList<>();
        for (int i = 0; i < parameters.length; i++) {
            MethodParameter parameter = parameters[i];
            if (bodyIndex < 0 && parameter.hasParameterAnnotation(RequestBody.class)) {
                bodyIndex = i;
            } else if (bodyIndex < 0 && HttpEntity.class.isAssignableFrom(parameter.getParameterType())) {
                bodyIndex = i;
                entity = true;
            }
            RequestHeader header = parameter.getParameterAnnotation(RequestHeader.class);
            Class<?> type = parameter.getParameterType();
            if (header != null && !Map.class.isAssignableFrom(type) && !HttpHeaders.class.isAssignableFrom(type)) {
                String name = headerName(header, parameter);
                if (name != null) {
                    headers.add(name.toLowerCase(Locale.ROOT));
                }
            }
        }
        return new HandlerMetadata(bodyIndex, entity, List.copyOf(headers));
    }

    private static @Nullable String headerName(RequestHeader header, MethodParameter parameter) {
        String named = header.name().isEmpty() ? header.value() : header.name(); // aliases, unless synthesized
        if (!named.isEmpty()) {
            return named;
        }
        parameter.initParameterNameDiscovery(new DefaultParameterNameDiscoverer());
        return parameter.getParameterName();
    }

    /** The request body among a call's arguments, or {@code null}. */
    public @Nullable Object body(@Nullable Object[] arguments) {
        if (bodyIndex < 0) {
            return null;
        }
        Object argument = arguments[bodyIndex];
        return entity && argument instanceof HttpEntity<?> httpEntity ? httpEntity.getBody() : argument;
    }
}

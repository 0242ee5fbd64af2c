package dev.idempotency.internal.http;

import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedMethod;
import org.springframework.http.HttpEntity;
import org.springframework.web.bind.annotation.RequestBody;

/**
 * Where a handler method's request body is, read once per method: a {@code @RequestBody} parameter (also when the
 * annotation sits on an interface the controller implements, as in generated OpenAPI controllers) or an
 * {@link HttpEntity} / {@code RequestEntity} parameter.
 *
 * @param bodyIndex position of the body parameter, or -1
 * @param entity whether that parameter is an {@link HttpEntity}, whose body is the payload
 */
public record HandlerMetadata(int bodyIndex, boolean entity) {

    public static HandlerMetadata of(Method method) {
        MethodParameter[] parameters = new AnnotatedMethod(method).getMethodParameters();
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i].hasParameterAnnotation(RequestBody.class)) {
                return new HandlerMetadata(i, false);
            }
            if (HttpEntity.class.isAssignableFrom(parameters[i].getParameterType())) {
                return new HandlerMetadata(i, true);
            }
        }
        return new HandlerMetadata(-1, false);
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

package dev.idempotency.web;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * What the HTTP binding needs to know about a handler method, read once per method: annotation lookups cost
 * microseconds, too much to repeat on every request.
 *
 * @param method the handler method
 * @param requestBodyIndex position of the {@code @RequestBody} parameter, or -1
 * @param declaredStatus the status of {@code @ResponseStatus} on the method or its class, 200 without one
 * @param produces the first media type the mapping {@code produces}, or {@code null}
 */
record HandlerMetadata(
        Method method,
        int requestBodyIndex,
        int declaredStatus,
        @Nullable String produces) {

    static HandlerMetadata of(Method method) {
        return new HandlerMetadata(method, requestBodyIndex(method), declaredStatus(method), produces(method));
    }

    private static int requestBodyIndex(Method method) {
        Annotation[][] annotations = method.getParameterAnnotations();
        for (int i = 0; i < annotations.length; i++) {
            for (Annotation annotation : annotations[i]) {
                if (annotation instanceof RequestBody) {
                    return i;
                }
            }
        }
        return -1;
    }

    private static int declaredStatus(Method method) {
        ResponseStatus declared = AnnotatedElementUtils.findMergedAnnotation(method, ResponseStatus.class);
        if (declared == null) {
            declared = AnnotatedElementUtils.findMergedAnnotation(method.getDeclaringClass(), ResponseStatus.class);
        }
        return declared == null ? 200 : declared.code().value();
    }

    private static @Nullable String produces(Method method) {
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
        return mapping != null && mapping.produces().length > 0 ? mapping.produces()[0] : null;
    }
}

package dev.idempotency.web.servlet;

import dev.idempotency.Strategy;
import dev.idempotency.internal.operation.OperationCheck;
import java.lang.reflect.Method;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.http.HttpEntity;
import org.springframework.http.ResponseEntity;
import org.springframework.util.ClassUtils;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;

/**
 * Refuses {@code REQUEST_ID} on handlers whose response is a stream: it cannot be replayed as sent (a bean method's
 * {@code Flux} is not a response, and is stored as the list of its elements). {@code LOCK} and
 * {@code TOKEN} on them are fine; they hold until the stream ends.
 */
final class StreamingReturnTypes implements OperationCheck {

    private static final List<String> STREAMS = List.of(
            "org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody",
            "org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter",
            "org.springframework.core.io.InputStreamResource",
            "reactor.core.publisher.Flux");

    @Override
    public void check(Method method, Strategy strategy) {
        // Only a handler's response is a stream: a bean method's Flux is stored as the list of its elements.
        if (strategy == Strategy.REQUEST_ID && isHandler(method) && streams(method)) {
            throw new IllegalArgumentException("REQUEST_ID replays the stored response, but a "
                    + streamType(method).getSimpleName()
                    + " is a stream that cannot be replayed as sent; use LOCK or TOKEN, or return the whole body");
        }
    }

    private static boolean isHandler(Method method) {
        return MergedAnnotations.from(method, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                .isPresent(RequestMapping.class);
    }

    /** Whether {@code method}'s response is a stream, written and flushed piece by piece. */
    static boolean streams(Method method) {
        Class<?> type = streamType(method);
        ClassLoader loader = method.getDeclaringClass().getClassLoader();
        for (String stream : STREAMS) {
            if (ClassUtils.isPresent(stream, loader)
                    && ClassUtils.resolveClassName(stream, loader).isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code returned} is an emitter the application writes to (SSE among them), maybe in a response entity. */
    static boolean isEmitter(@Nullable Object returned) {
        Object body = returned instanceof ResponseEntity<?> entity ? entity.getBody() : returned;
        return body instanceof ResponseBodyEmitter;
    }

    /** The type of the body {@code method} returns, looking into {@code ResponseEntity}. */
    private static Class<?> streamType(Method method) {
        ResolvableType returned = ResolvableType.forMethodReturnType(method);
        if (HttpEntity.class.isAssignableFrom(returned.toClass())) {
            returned = returned.as(HttpEntity.class).getGeneric(0);
        }
        return returned.toClass();
    }
}

package dev.idempotency.actuate;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestMapping;

/** Reads a handler method's routes from its {@code @RequestMapping}s; loaded only when Spring Web is present. */
final class WebRoutes {

    private WebRoutes() {}

    static List<String> of(Method method) {
        RequestMapping onMethod = AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
        if (onMethod == null) {
            return List.of();
        }
        RequestMapping onType =
                AnnotatedElementUtils.findMergedAnnotation(method.getDeclaringClass(), RequestMapping.class);
        List<String> prefixes = onType == null || onType.path().length == 0 ? List.of("") : List.of(onType.path());
        List<String> paths = onMethod.path().length == 0 ? List.of("") : List.of(onMethod.path());
        List<String> routes = new ArrayList<>();
        for (var httpMethod : onMethod.method()) {
            for (String prefix : prefixes) {
                for (String path : paths) {
                    routes.add(httpMethod.name() + " " + prefix + path);
                }
            }
        }
        return routes;
    }
}

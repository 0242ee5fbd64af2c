package dev.idempotency.actuate;

import java.lang.reflect.Method;
import java.util.List;
import org.springframework.util.ClassUtils;

/** HTTP routes of a handler method ({@code POST /orders}), the operation names its keys are scoped by. */
final class HttpRoutes {

    private static final boolean WEB_PRESENT = ClassUtils.isPresent(
            "org.springframework.web.bind.annotation.RequestMapping", HttpRoutes.class.getClassLoader());

    private HttpRoutes() {}

    static List<String> of(Method method) {
        return WEB_PRESENT ? WebRoutes.of(method) : List.of();
    }
}

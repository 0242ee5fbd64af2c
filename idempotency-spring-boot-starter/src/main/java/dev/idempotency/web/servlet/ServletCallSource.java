package dev.idempotency.web.servlet;

import dev.idempotency.internal.operation.CallSource;
import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.ProtectedInvocation;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Claims a call when the annotated method is the handler of the current Spring MVC request; any other call (a service
 * method, a listener, a call from another thread) stays a bean call.
 */
final class ServletCallSource implements CallSource {

    private final ServletExchangeFlow flow;

    ServletCallSource(ServletExchangeFlow flow) {
        this.flow = flow;
    }

    @Override
    public @Nullable InvocationFlow select(ProtectedInvocation call) {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (!(attributes instanceof ServletRequestAttributes servlet)) {
            return null;
        }
        HttpServletRequest request = servlet.getRequest();
        if (!(request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE) instanceof HandlerMethod handler)
                || !handler.getMethod().equals(call.spec().method())) {
            return null;
        }
        ServletExchange exchange = ServletExchange.of(request);
        if (exchange == null) {
            throw new IllegalStateException("@Idempotent handler " + call.spec().name() + " ran without the"
                    + " idempotency response filter; it is registered by Spring Boot (with MockMvc, build it with"
                    + " the application's filters)");
        }
        return protectedCall -> flow.run(protectedCall, request, exchange);
    }
}

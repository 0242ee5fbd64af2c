package dev.idempotency.web;

import dev.idempotency.aop.CallBinding;
import dev.idempotency.aop.CallBindingFactory;
import dev.idempotency.aop.IdempotentOperation;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/**
 * Binds a call to HTTP when the annotated method is the handler of the current Spring MVC request; any other call (a
 * service method, a listener, a call from another thread) is a bean method call.
 */
public final class WebCallBindingFactory implements CallBindingFactory {

    private final Map<Method, HandlerMetadata> handlers = new ConcurrentHashMap<>();
    private final CallBindingFactory beanMethods;
    private final JsonMapper jsonMapper;

    public WebCallBindingFactory(CallBindingFactory beanMethods, JsonMapper jsonMapper) {
        this.beanMethods = beanMethods;
        this.jsonMapper = jsonMapper;
    }

    @Override
    public CallBinding bind(IdempotentOperation operation, MethodInvocation invocation) {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (attributes instanceof ServletRequestAttributes servlet
                && servlet.getResponse() != null
                && servlet.getRequest().getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE)
                        instanceof HandlerMethod handler
                && handler.getMethod().equals(operation.method())) {
            HandlerMetadata metadata = handlers.computeIfAbsent(operation.method(), HandlerMetadata::of);
            return new HttpHandlerBinding(
                    metadata, invocation, servlet.getRequest(), servlet.getResponse(), jsonMapper);
        }
        return beanMethods.bind(operation, invocation);
    }
}

package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.HeldBody;
import dev.idempotency.internal.http.HeldCall;
import dev.idempotency.internal.http.ReplayedHeaders;
import java.lang.reflect.Type;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.HandlerMethodReturnValueHandlerComposite;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * Renders the end of work that outlived its request (the server's async timeout, a client gone) as Spring MVC would
 * have rendered it for the caller who left: a value through the application's return value handlers (content
 * negotiation, message converters, {@code ResponseBodyAdvice}, {@code @JsonView}, {@code @ResponseStatus}), an error
 * through its exception resolvers ({@code @ExceptionHandler}, {@code ErrorResponse}, {@code ResponseStatusException}),
 * on a copy of the request frozen when the call detached. What it writes is stored for duplicates and classified by
 * {@code release-on}, exactly as an attached call's response is.
 */
final class LateRender {

    private static final Logger log = LoggerFactory.getLogger(LateRender.class);

    /** The composite of Spring MVC's own exception resolvers, as DispatcherServlet uses them. */
    private static final String EXCEPTION_RESOLVER = "handlerExceptionResolver";

    private final ObjectProvider<RequestMappingHandlerAdapter> adapter;
    private final BeanFactory beans;
    private final ReplayedHeaders replayedHeaders;
    private final long maxBytes;
    private volatile @Nullable HandlerMethodReturnValueHandlerComposite handlers;

    LateRender(
            ObjectProvider<RequestMappingHandlerAdapter> adapter,
            BeanFactory beans,
            ReplayedHeaders replayedHeaders,
            long maxBytes) {
        this.adapter = adapter;
        this.beans = beans;
        this.replayedHeaders = replayedHeaders;
        this.maxBytes = maxBytes;
    }

    /**
     * The response the caller would have got for the work's {@code value} or {@code failure}, or {@code null} when it
     * cannot be rendered now (a view, or the renderer itself failed).
     */
    HeldCall.@Nullable SentResponse render(FrozenRequest request, @Nullable Object value, @Nullable Throwable failure) {
        if (!(request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE) instanceof HandlerMethod mapped)) {
            return null;
        }
        HandlerMethod handler = mapped.createWithResolvedBean(); // the mapping holds the bean's name
        BufferedResponse response = new BufferedResponse();
        ServletWebRequest web = new ServletWebRequest(request, response);
        RequestAttributes outer = RequestContextHolder.getRequestAttributes();
        RequestContextHolder.setRequestAttributes(web);
        try {
            boolean rendered = failure == null ? renderValue(handler, value, web) : renderError(handler, failure, web);
            response.flushBuffer();
            return rendered ? rendered(response) : null;
        } catch (Exception | LinkageError ex) {
            log.warn("Could not render the late answer of {}: {}", handler.getShortLogMessage(), ex.toString());
            return null;
        } finally {
            RequestContextHolder.setRequestAttributes(outer);
        }
    }

    private boolean renderValue(HandlerMethod handler, @Nullable Object value, ServletWebRequest web) throws Exception {
        ResponseStatus status = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), ResponseStatus.class);
        if (status != null) {
            web.getResponse().setStatus(status.code().value());
        }
        ModelAndViewContainer container = new ModelAndViewContainer();
        handlers().handleReturnValue(value, new LateResult(handler.getReturnType(), value), container, web);
        return container.isRequestHandled(); // a view cannot be rendered without its request
    }

    private boolean renderError(HandlerMethod handler, Throwable failure, ServletWebRequest web) {
        BufferedResponse response = (BufferedResponse) web.getResponse();
        HandlerExceptionResolver resolvers = beans.containsBean(EXCEPTION_RESOLVER)
                ? beans.getBean(EXCEPTION_RESOLVER, HandlerExceptionResolver.class)
                : null;
        if (!(failure instanceof Exception exception)
                || resolvers == null
                || resolvers.resolveException(web.getRequest(), response, handler, exception) == null) {
            response.sendError(500); // nothing mapped it: as Spring MVC answers an unhandled exception
        }
        return true;
    }

    /** The late answer as a store reads it: past {@code max-response-size}, or ended by sendError, without a body. */
    private WrittenResponse rendered(BufferedResponse response) {
        return new WrittenResponse(
                response,
                replayedHeaders,
                () -> {
                    HeldBody body = response.body();
                    return body == null || body.size() > maxBytes ? null : body;
                },
                () -> response.body() == null
                        ? "ended by sendError"
                        : "larger than idempotency.request-id.max-response-size");
    }

    private HandlerMethodReturnValueHandlerComposite handlers() {
        HandlerMethodReturnValueHandlerComposite composite = handlers;
        if (composite == null) {
            composite = new HandlerMethodReturnValueHandlerComposite();
            List<HandlerMethodReturnValueHandler> configured =
                    adapter.getObject().getReturnValueHandlers();
            if (configured != null) {
                composite.addHandlers(configured);
            }
            handlers = composite;
        }
        return composite;
    }

    /**
     * The return type as the value came, as Spring MVC's own async dispatch sees it: the value's class, and the generic
     * type inside the handler's {@code CompletableFuture}, {@code Callable}, {@code DeferredResult} or {@code Mono}.
     */
    private static final class LateResult extends MethodParameter {

        private final @Nullable Object value;
        private final ResolvableType type;

        LateResult(MethodParameter returned, @Nullable Object value) {
            super(returned);
            this.value = value;
            this.type = ResolvableType.forMethodParameter(returned).getGeneric();
        }

        private LateResult(LateResult original) {
            super(original);
            this.value = original.value;
            this.type = original.type;
        }

        @Override
        public Class<?> getParameterType() {
            if (value != null) {
                return value.getClass();
            }
            return ResolvableType.NONE.equals(type) ? super.getParameterType() : type.toClass();
        }

        @Override
        public Type getGenericParameterType() {
            return type.getType();
        }

        @Override
        public LateResult clone() {
            return new LateResult(this);
        }
    }
}

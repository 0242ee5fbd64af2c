package dev.idempotency.web;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import dev.idempotency.aop.IdempotentOperation;
import dev.idempotency.aop.OperationDefaults;
import dev.idempotency.aop.OperationRegistry;
import dev.idempotency.aop.OperationResolver;
import dev.idempotency.aop.ScopeResolver;
import dev.idempotency.bench.app.Echo;
import dev.idempotency.bench.load.LoadRequest;
import dev.idempotency.key.RedisKeys;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/**
 * One Spring MVC call of an {@code @Idempotent} handler as the interceptor meets it, without a server or Redis: the
 * request as Spring MVC leaves it after handler mapping (route pattern, handler method, path variables), the response,
 * the resolved operation and the AOP invocation. The servlet objects are Spring's mocks; nothing here stands in for
 * Redis.
 */
public final class WebCallFixture {

    /** The client's key header, a UUID as most clients send. */
    public static final String CLIENT_KEY = "6f1c2a1e-3b7d-4c55-9a7e-0d2f1f9b8c41";

    public final JsonMapper jsonMapper = JsonMapper.builder().build();
    public final Handler handler = new Handler();
    public final Method method;
    public final Echo echo =
            new Echo("r1-request-id-1-123456", "benchmark-widget", 3, 129_900, "EUR", LoadRequest.NOTE);
    public final MockHttpServletRequest request = new MockHttpServletRequest("POST", "/request-id");
    public final MockHttpServletResponse response = new MockHttpServletResponse();
    public final OperationRegistry registry;
    public final IdempotentOperation operation;
    public final MethodInvocation invocation;
    public final WebCallBindingFactory bindings;
    public final ScopeResolver scopes = new ScopeResolver(null);
    public final RedisKeys keys = new RedisKeys("idempotency:");

    public WebCallFixture() {
        try {
            method = Handler.class.getMethod("requestId", Echo.class);
        } catch (NoSuchMethodException ex) {
            throw new IllegalStateException(ex);
        }
        OperationDefaults.StrategyDefaults requestId = new OperationDefaults.StrategyDefaults(
                "Idempotency-Key", Duration.ofHours(24), Duration.ofSeconds(30), Duration.ZERO, true);
        OperationDefaults.StrategyDefaults token = new OperationDefaults.StrategyDefaults(
                "Idempotency-Token", Duration.ofMinutes(10), Duration.ofSeconds(30), Duration.ZERO, false);
        OperationDefaults.StrategyDefaults lock = new OperationDefaults.StrategyDefaults(
                "Idempotency-Key", Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ZERO, false);
        registry = new OperationRegistry(
                new OperationResolver(new OperationDefaults(requestId, token, lock, false), Map.of(), value -> value));
        IdempotentOperation resolved = registry.operationOf(method, Handler.class);
        if (resolved == null || resolved.strategy() != Strategy.REQUEST_ID) {
            throw new IllegalStateException("the fixture's handler is not a REQUEST_ID operation");
        }
        operation = resolved;
        invocation = new Invocation(handler, method, new Object[] {echo});
        bindings = new WebCallBindingFactory(
                (op, call) -> {
                    throw new IllegalStateException("not an HTTP call");
                },
                jsonMapper);

        request.setContentType(MediaType.APPLICATION_JSON_VALUE);
        request.addHeader("Idempotency-Key", CLIENT_KEY);
        request.setContent(jsonMapper.writeValueAsString(echo).getBytes(StandardCharsets.UTF_8));
        request.setAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE, new HandlerMethod(handler, method));
        request.setAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE, "/request-id");
        request.setAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE, Map.of());
    }

    /** Makes this the current request of the calling thread, as the DispatcherServlet does. */
    public void bindToCurrentThread() {
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request, response));
    }

    /** Lets the response be written again after a replay committed it. */
    public void resetResponse() {
        response.setCommitted(false);
        response.reset();
    }

    /** The annotated handler: the same method as the bench app's {@code /request-id}. */
    public static class Handler {

        /** Echoes the body. */
        @PostMapping("/request-id")
        @Idempotent
        public Echo requestId(@RequestBody Echo body) {
            return body;
        }
    }

    /** The AOP invocation of the handler, as Spring's proxy hands it to the interceptor. */
    private static final class Invocation implements MethodInvocation {

        private final Handler target;
        private final Method method;
        private final Object[] arguments;

        Invocation(Handler target, Method method, Object[] arguments) {
            this.target = target;
            this.method = method;
            this.arguments = arguments;
        }

        @Override
        public Method getMethod() {
            return method;
        }

        @Override
        public Object[] getArguments() {
            return arguments;
        }

        @Override
        public @Nullable Object proceed() {
            return target.requestId((Echo) arguments[0]);
        }

        @Override
        public Object getThis() {
            return target;
        }

        @Override
        public AccessibleObject getStaticPart() {
            return method;
        }
    }
}

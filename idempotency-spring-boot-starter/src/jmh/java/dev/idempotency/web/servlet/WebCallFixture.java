package dev.idempotency.web.servlet;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import dev.idempotency.autoconfigure.IdempotencyProperties;
import dev.idempotency.internal.aop.BlockingCallFlow;
import dev.idempotency.internal.aop.FutureCallFlow;
import dev.idempotency.internal.aop.IdempotencyInterceptor;
import dev.idempotency.internal.http.HeldBytes;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.operation.OperationDefaults;
import dev.idempotency.internal.operation.OperationDefaults.StrategyDefaults;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.OperationResolver;
import dev.idempotency.internal.operation.Protection;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.scope.ScopeResolver;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletResponse;
import java.io.IOException;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Spring MVC application of the starter without a server or Redis: the real pieces wired as the auto-configuration
 * wires them with default settings (the operation registry, the three strategies of a {@link RedisIdempotency}, the
 * interceptor with the servlet flow, the response filter), over {@link ImmediateRedis}; and one request per endpoint
 * as Spring MVC leaves it after handler mapping (route pattern, handler method, path variables), with Spring's servlet
 * mocks. {@link #serve} runs one exchange as the servlet container and Spring MVC would: the filter, the handler call
 * through the interceptor, and the message converter's write of the returned body.
 */
final class WebCallFixture implements AutoCloseable {

    /** The client's key header, a UUID as most clients send. */
    static final String CLIENT_KEY = "6f1c2a1e-3b7d-4c55-9a7e-0d2f1f9b8c41";

    /** A well-formed token (32 base64url characters); the stand-in Redis says it is valid. */
    static final String TOKEN = "q7Vh0m2kP9xZ3cR5tY8uB1nW4eJ6gL0a";

    /** The token's state in Redis before it is consumed. */
    static final byte[] VALID_TOKEN = {'V'};

    /** How much Jackson's UTF-8 generator writes at a time. */
    private static final int JSON_CHUNK = 8000;

    /** Padding that brings the body to the bench app's ~200 bytes ({@code LoadRequest.NOTE}). */
    static final String NOTE = "padding-to-a-typical-response-size-0123456789abcdefghijklmnopqrstuvwxyz";

    final JsonMapper jsonMapper = JsonMapper.builder().build();
    final IdempotencyProperties properties = new IdempotencyProperties();
    final ImmediateRedis redis = new ImmediateRedis();
    final RedisIdempotency idempotency = RedisIdempotency.builder(redis).build();
    final Handler handler = new Handler();
    final Body body = new Body("r1-request-id-1-123456", "benchmark-widget", 3, 129_900, "EUR", NOTE);
    final byte[] bodyJson = jsonMapper.writeValueAsBytes(body);
    /** What the handler's response writes: the body's JSON, or a larger answer ({@link #WebCallFixture(int)}). */
    private final byte[] answer;

    final MockHttpServletResponse response = new MockHttpServletResponse();
    final OperationRegistry registry;
    final IdempotencyInterceptor interceptor;
    final IdempotencyResponseFilter filter;
    final Endpoint requestId;
    final Endpoint token;
    final Endpoint lock;

    WebCallFixture() {
        this(0);
    }

    /**
     * @param answerBytes when positive, the handler answers a JSON string of about this many bytes, written in chunks
     *     of 8 000 bytes as Jackson's generator flushes them (a large answer)
     */
    WebCallFixture(int answerBytes) {
        answer = answerBytes > 0 ? largeAnswer(answerBytes) : bodyJson;
        IdempotencyProperties.RequestId requestIdSettings = properties.getRequestId();
        IdempotencyProperties.Token tokenSettings = properties.getToken();
        IdempotencyProperties.Lock lockSettings = properties.getLock();
        // As PropertiesMapping maps the default properties.
        OperationDefaults defaults = new OperationDefaults(
                new StrategyDefaults(
                        requestIdSettings.getHeader(),
                        requestIdSettings.getTtl(),
                        requestIdSettings.getLease(),
                        requestIdSettings.getWait(),
                        requestIdSettings.isFingerprint()),
                new StrategyDefaults(
                        tokenSettings.getHeader(),
                        tokenSettings.getTtl(),
                        lockSettings.getLease(),
                        Duration.ZERO,
                        false),
                new StrategyDefaults(
                        requestIdSettings.getHeader(),
                        lockSettings.getLease(),
                        lockSettings.getLease(),
                        lockSettings.getWait(),
                        false),
                false,
                dev.idempotency.web.ReleaseOutcome.defaults(),
                false);
        registry = new OperationRegistry(new OperationResolver(
                defaults,
                Map.of(),
                value -> value,
                jsonMapper,
                new BlockingCallFlow(),
                List.of(new FutureCallFlow()),
                List.of(new StreamingReturnTypes())));
        Protection protection = new Protection(
                List.of(idempotency.requestIds(), idempotency.tokens(), idempotency.locks()),
                ScopeResolver.shared(),
                false,
                InvocationObserver.NONE);
        ServletExchangeFlow flow = new ServletExchangeFlow(
                new RouteOperations(
                        new DefaultListableBeanFactory().getBeanProvider(RequestMappingHandlerMapping.class)),
                jsonMapper,
                requestIdSettings.getMaxResponseSize().toBytes(),
                new MvcAsyncExecution(new SimpleAsyncTaskExecutor()));
        interceptor = new IdempotencyInterceptor(registry, List.of(new ServletCallSource(flow)), protection);
        ReplayedHeaders replayedHeaders = new ReplayedHeaders(requestIdSettings.getReplayedHeaders());
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        filter = new IdempotencyResponseFilter(
                replayedHeaders,
                jsonMapper,
                new HeldBytes(Long.MAX_VALUE),
                new LateRender(
                        beans.getBeanProvider(RequestMappingHandlerAdapter.class),
                        beans,
                        replayedHeaders,
                        requestIdSettings.getMaxResponseSize().toBytes()));
        registry.register(Handler.class);

        requestId = new Endpoint("/request-id", handler::requestId);
        requestId.request.addHeader(requestIdSettings.getHeader(), CLIENT_KEY);
        token = new Endpoint("/token", handler::token);
        token.request.addHeader(tokenSettings.getHeader(), TOKEN);
        lock = new Endpoint("/lock", handler::lock);
    }

    /**
     * One exchange: the response filter, the handler call through the interceptor (as the proxy would hand it over),
     * and, when the handler returned a body, its JSON written as the message converter would (pre-serialized: Jackson's
     * share is the same for every endpoint, see {@code HttpBindingBenchmarks.jsonWriteBody}). Resets the response.
     *
     * @return the response's status
     */
    int serve(Endpoint endpoint) throws IOException, ServletException {
        exchange(endpoint);
        return resetResponse();
    }

    /** {@link #serve}, described for a check before measuring: status, whether replayed, body length. */
    String serveAndDescribe(Endpoint endpoint) throws IOException, ServletException {
        exchange(endpoint);
        String description =
                response.getStatus() + " replayed=" + (response.getHeader(ReplayedHeaders.REPLAYED) != null) + " body="
                        + response.getContentAsByteArray().length;
        resetResponse();
        return description;
    }

    private void exchange(Endpoint endpoint) throws IOException, ServletException {
        RequestContextHolder.setRequestAttributes(endpoint.attributes);
        filter.doFilter(endpoint.request, response, (request, wrapped) -> {
            Object result = invoke(endpoint.invocation);
            if (result != null) {
                write(wrapped);
            }
        });
    }

    /** What an endpoint does without the starter: the handler, then the body's JSON written. Resets the response. */
    int serveUnprotected(Endpoint endpoint) throws IOException {
        if (endpoint.invocation.proceed() != null) {
            write(response);
        }
        return resetResponse();
    }

    /** Runs one first request and returns the record its completion stored, as a duplicate's claim reads it. */
    byte[] storedRecord() throws IOException, ServletException {
        redis.setGetReply = null;
        redis.lastStored = null;
        serve(requestId);
        byte[] stored = redis.lastRecord();
        if (stored == null) {
            throw new IllegalStateException("the first request stored nothing");
        }
        return stored;
    }

    private void write(ServletResponse target) throws IOException {
        target.setContentType(MediaType.APPLICATION_JSON_VALUE);
        for (int offset = 0; offset < answer.length; offset += JSON_CHUNK) {
            target.getOutputStream().write(answer, offset, Math.min(JSON_CHUNK, answer.length - offset));
        }
    }

    private static byte[] largeAnswer(int bytes) {
        byte[] json = new byte[bytes];
        java.util.Arrays.fill(json, (byte) 'x');
        json[0] = '"';
        json[bytes - 1] = '"';
        return json;
    }

    private @Nullable Object invoke(MethodInvocation invocation) throws IOException, ServletException {
        try {
            return interceptor.invoke(invocation);
        } catch (IOException | ServletException | RuntimeException | Error ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new ServletException(ex);
        }
    }

    /** Lets the response be written again after a call committed it. */
    int resetResponse() {
        int status = response.getStatus();
        response.setCommitted(false);
        response.reset();
        return status;
    }

    @Override
    public void close() {
        RequestContextHolder.resetRequestAttributes();
        idempotency.close();
    }

    /** The request body and response of every endpoint, as the bench app's {@code Echo}. */
    public record Body(String id, String item, int quantity, long amountCents, String currency, String note) {}

    /** The annotated handlers: the bench app's {@code /request-id}, {@code /token} and {@code /lock}. */
    public static class Handler {

        /** {@code REQUEST_ID}: key from the {@code Idempotency-Key} header, response stored and replayed. */
        @PostMapping("/request-id")
        @Idempotent
        public Body requestId(@RequestBody Body body) {
            return body;
        }

        /** {@code TOKEN}: consumes the token in the {@code Idempotency-Token} header. */
        @PostMapping("/token")
        @Idempotent(strategy = Strategy.TOKEN)
        public Body token(@RequestBody Body body) {
            return body;
        }

        /** {@code LOCK}: a lease lock on the body's id while the handler runs. */
        @PostMapping("/lock")
        @Idempotent(strategy = Strategy.LOCK, key = "#body.id")
        public Body lock(@RequestBody Body body) {
            return body;
        }
    }

    /** One endpoint's request after handler mapping, and the AOP invocation of its handler method. */
    final class Endpoint {

        final MockHttpServletRequest request;
        final ServletRequestAttributes attributes;
        final Method method;
        final Invocation invocation;

        Endpoint(String route, Function<Body, Body> call) {
            method = handlerMethod(route);
            request = new MockHttpServletRequest("POST", route);
            request.setContentType(MediaType.APPLICATION_JSON_VALUE);
            request.setContent(bodyJson);
            request.setAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE, new HandlerMethod(handler, method));
            request.setAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE, route);
            request.setAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE, Map.of());
            attributes = new ServletRequestAttributes(request, response);
            invocation = new Invocation(handler, method, new Object[] {body}, call);
        }

        private static Method handlerMethod(String route) {
            for (Method candidate : Handler.class.getMethods()) {
                PostMapping mapping = candidate.getAnnotation(PostMapping.class);
                if (mapping != null && mapping.value()[0].equals(route)) {
                    return candidate;
                }
            }
            throw new IllegalArgumentException("no handler for " + route);
        }
    }

    /** The AOP invocation of a handler method, as Spring's proxy hands it to the interceptor. */
    static final class Invocation implements MethodInvocation {

        private final Handler target;
        private final Method method;
        private final Object[] arguments;
        private final Function<Body, Body> call;

        Invocation(Handler target, Method method, Object[] arguments, Function<Body, Body> call) {
            this.target = target;
            this.method = method;
            this.arguments = arguments;
            this.call = call;
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
            return call.apply((Body) arguments[0]);
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

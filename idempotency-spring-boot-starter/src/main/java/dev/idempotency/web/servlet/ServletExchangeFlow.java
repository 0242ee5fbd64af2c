package dev.idempotency.web.servlet;

import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.internal.aop.Unprotected;
import dev.idempotency.internal.http.HandlerMetadata;
import dev.idempotency.internal.http.HeldCall;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.StoredResponse;
import dev.idempotency.internal.operation.OperationSpec;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import dev.idempotency.spi.Permit;
import dev.idempotency.spi.ProtectedCall;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.web.context.request.async.WebAsyncUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * The handler of the current Spring MVC request: the key comes from a header (or SpEL), the operation is the route,
 * the payload is the request. A duplicate gets the stored response written back as it was sent, marked
 * {@code Idempotent-Replayed: true}, and the handler does not run; a first call runs with its permit held by the
 * {@link ServletExchange} until the response is complete, whatever the handler returns (also {@code CompletableFuture},
 * {@code DeferredResult}, {@code Callable} or {@code WebAsyncTask}).
 */
final class ServletExchangeFlow {

    private final Map<Method, HandlerMetadata> handlers = new ConcurrentHashMap<>();
    private final Map<Method, Boolean> streaming = new ConcurrentHashMap<>();
    private final RouteOperations routes;
    private final JsonMapper jsonMapper;
    private final long maxResponseSize;
    private final MvcAsyncExecution execution;

    ServletExchangeFlow(
            RouteOperations routes, JsonMapper jsonMapper, long maxResponseSize, MvcAsyncExecution execution) {
        this.routes = routes;
        this.jsonMapper = jsonMapper;
        this.maxResponseSize = maxResponseSize;
        this.execution = execution;
    }

    /** Runs the handler call of {@code request}, whose exchange the response filter opened. */
    @Nullable
    Object run(ProtectedInvocation call, HttpServletRequest request, ServletExchange exchange) throws Throwable {
        OperationSpec spec = call.spec();
        InvocationObserver.Scope observation = call.observe();
        Permit permit;
        try {
            HandlerMetadata handler = handlers.computeIfAbsent(spec.method(), HandlerMetadata::of);
            ProtectedCall protectedCall = call.call(
                    call.protection().currentScope(),
                    request::getHeader,
                    spec.explicitId() ? spec.id() : routes.of(request, spec),
                    () -> RequestFingerprint.of(
                            request, handler, call.invocation().getArguments(), spec.fingerprintFields(), jsonMapper));
            StrategyRunner.Admitted<StoredResponse> admitted =
                    StrategyRunner.admit(() -> call.strategy().admit(protectedCall), StoredResponse::decode);
            if (admitted.isReplay()) {
                replay(exchange.response(), admitted.replayed());
                observation.end(Outcome.REPLAYED, null);
                return null; // the response is committed: Spring MVC writes nothing more for a null result
            }
            permit = admitted.permit();
        } catch (Throwable failure) {
            return Unprotected.runOrRethrow(call, observation, failure, false);
        }
        // Held back until the permit is settled (stored, lock released, token restored), so a client that sends its
        // next request the moment it has this response finds that done; a stream goes out as it is written.
        boolean holdBack = !streaming.computeIfAbsent(spec.method(), StreamingReturnTypes::streams);
        AsyncEnds.watch(WebAsyncUtils.getAsyncManager(request), exchange);
        exchange.hold(
                new HeldCall(permit, spec, observation, call.protection().detachedRenewal()),
                holdBack ? maxResponseSize : -1);
        try {
            return watchTheWork(permit.callWithin(call::proceed), spec, permit, request, exchange);
        } catch (Throwable failure) {
            exchange.failed(failure);
            throw failure;
        } finally {
            observation.detach(); // the call is settled when the response is complete, maybe on another thread
        }
    }

    /**
     * Lets the exchange learn when the work ends by itself: at once for an answer, later for asynchronous work (see
     * {@link MvcAsyncExecution}), so that work which outlives its request (the server's async timeout, a client gone)
     * still settles its call, and an error writing the answer afterwards is told apart from the work's own.
     */
    private @Nullable Object watchTheWork(
            @Nullable Object returned,
            OperationSpec spec,
            Permit permit,
            HttpServletRequest request,
            ServletExchange exchange) {
        if (!MvcAsyncExecution.isAsync(returned)) {
            if (!StreamingReturnTypes.isEmitter(returned)) {
                exchange.workReturned(); // an emitter not connected (EmitterRelay): its end is the application's
            }
            return returned;
        }
        exchange.workObserved();
        return execution.adopt(returned, WebAsyncUtils.getAsyncManager(request), permit.context(), exchange::workEnded);
    }

    private static void replay(HttpServletResponse response, @Nullable StoredResponse stored) throws IOException {
        if (stored == null) {
            throw new IllegalStateException("no stored response");
        }
        response.setStatus(stored.status());
        stored.headers().forEach(header -> response.addHeader(header.name(), header.value()));
        response.setHeader(ReplayedHeaders.REPLAYED, "true");
        response.setContentLength(stored.body().length);
        response.getOutputStream().write(stored.body());
        response.flushBuffer();
    }
}

package dev.idempotency.web.reactive;

import dev.idempotency.Strategy;
import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.internal.http.HandlerMetadata;
import dev.idempotency.internal.http.HeldCall;
import dev.idempotency.internal.http.StoredResponse;
import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.OperationSpec;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.internal.reactive.ReactiveCallSource;
import dev.idempotency.internal.reactive.ReactiveCalls;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import dev.idempotency.scope.ReactiveScopeResolver;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.web.StreamNotReplayableException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;
import tools.jackson.databind.json.JsonMapper;

/**
 * The handler of the current WebFlux exchange: the key comes from a header (or SpEL), the operation is the route, the
 * payload is the request, exactly as on Spring MVC. A duplicate's handler does not run and the stored response is
 * written instead; a first call runs with its permit held by the {@link ExchangeState} until its response is about to
 * be committed. Handlers returning {@code Mono} or {@code Flux} are admitted when WebFlux subscribes to them, without
 * blocking; handlers returning a plain value run on the blocking executor, where admission may wait for Redis
 * ({@link PlainHandlerCall}). WebFlux's one {@link ReactiveCallSource}.
 */
final class WebFluxExchangeFlow implements ReactiveCallSource {

    private final Map<Method, HandlerMetadata> handlers = new ConcurrentHashMap<>();
    private final ExchangeRoutes routes;
    private final JsonMapper jsonMapper;
    private final ReactiveScopeResolver scopes;

    WebFluxExchangeFlow(ExchangeRoutes routes, JsonMapper jsonMapper, ReactiveScopeResolver scopes) {
        this.routes = routes;
        this.jsonMapper = jsonMapper;
        this.scopes = scopes;
    }

    @Override
    public @Nullable InvocationFlow select(ProtectedInvocation call) {
        return PlainHandlerCall.select(this, call);
    }

    @Override
    public @Nullable Publisher<?> bind(ProtectedInvocation call, ContextView context, boolean many) {
        ExchangeState state = ExchangeState.of(context);
        if (state == null || !isHandler(state.exchange(), call)) {
            return null;
        }
        InvocationObserver.Scope observation = ReactiveCalls.observe(call, context);
        if (many
                && call.spec().strategy() == Strategy.REQUEST_ID
                && ReactiveStreams.requested(
                        state.exchange().getRequest().getHeaders().getAccept())) {
            StreamNotReplayableException refused = new StreamNotReplayableException(
                    "This request asks for a stream, which cannot be replayed; ask for application/json");
            observation.end(Outcome.ofRejection(refused), refused);
            return Flux.error(refused);
        }
        return admit(call, state, observation, state.handoff()).flatMapMany(admitted -> {
            if (admitted.isEmpty()) {
                return ReactiveCalls.proceed(call, null);
            }
            StrategyRunner.Admitted<StoredResponse> admission = admitted.get();
            if (admission.isReplay()) {
                replay(state, admission, observation);
                return Flux.empty();
            }
            return ReactiveCalls.proceed(call, admission.permit()).doOnError(state::failed);
        });
    }

    /**
     * Runs a handler that returns a plain value, on the thread WebFlux invokes it on, which must be allowed to block.
     * A duplicate gets {@code null}: WebFlux then writes nothing of its own and the stored response goes out instead.
     */
    @Nullable
    Object runBlocking(ProtectedInvocation call, ExchangeState state) throws Throwable {
        InvocationObserver.Scope observation = ReactiveCalls.observe(call, state.context());
        Optional<StrategyRunner.Admitted<StoredResponse>> admitted = admit(
                        call, state, observation, Schedulers.immediate()) // this thread waits for it
                .contextWrite(state.context())
                .block();
        if (admitted == null) {
            return null; // the client went away before it was admitted: nothing ran, nothing to write
        }
        if (admitted.isEmpty()) {
            return call.proceed();
        }
        StrategyRunner.Admitted<StoredResponse> admission = admitted.get();
        if (admission.isReplay()) {
            replay(state, admission, observation);
            return null;
        }
        try {
            return admission.permit().callWithin(call::proceed);
        } catch (Throwable failure) {
            state.failed(failure);
            throw failure;
        }
    }

    static boolean isHandler(ServerWebExchange exchange, ProtectedInvocation call) {
        return exchange.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE) instanceof HandlerMethod handler
                && handler.getMethod().equals(call.spec().method());
    }

    private static void replay(
            ExchangeState state,
            StrategyRunner.Admitted<StoredResponse> admission,
            InvocationObserver.Scope observation) {
        StoredResponse stored = admission.replayed();
        if (stored == null) {
            throw new IllegalStateException("no stored response");
        }
        state.replayWith(stored);
        observation.end(Outcome.REPLAYED, null);
    }

    private Mono<Optional<StrategyRunner.Admitted<StoredResponse>>> admit(
            ProtectedInvocation call, ExchangeState state, InvocationObserver.Scope observation, Scheduler handoff) {
        return ReactiveCalls.admit(
                call,
                observation,
                protectedCall(call, state.exchange()),
                StoredResponse::decode,
                permit -> state.offer(new HeldCall(
                        permit, call.spec(), observation, call.protection().detachedRenewal())),
                handoff);
    }

    private Mono<ProtectedCall> protectedCall(ProtectedInvocation call, ServerWebExchange exchange) {
        OperationSpec spec = call.spec();
        Mono<String> scope = ReactiveCalls.scope(call.protection(), scopes);
        Mono<String> fingerprint = spec.comparesPayloads()
                ? ExchangePayload.fingerprint(
                        exchange,
                        handlers.computeIfAbsent(spec.method(), HandlerMetadata::of),
                        call.invocation().getArguments(),
                        spec.fingerprintFields(),
                        jsonMapper)
                : Mono.just("");
        return Mono.zip(scope, fingerprint)
                .map(parts -> call.call(
                        parts.getT1(),
                        exchange.getRequest().getHeaders()::getFirst,
                        spec.explicitId() ? spec.id() : routes.of(exchange, spec),
                        parts::getT2));
    }
}

package dev.idempotency.internal.reactive;

import dev.idempotency.Strategy;
import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.JsonResultCodec;
import dev.idempotency.internal.operation.OperationSpec;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.internal.operation.ReturnTypeFlow;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import dev.idempotency.scope.ReactiveScopeResolver;
import dev.idempotency.spi.ProtectedCall;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.ResolvableType;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.context.ContextView;

/**
 * Methods returning {@code Mono} or {@code Flux}: the claim, token or lock spans the whole subscription, and nothing
 * blocks. Admission happens when the returned publisher is subscribed, so the method itself runs only once admitted.
 * A {@link ReactiveCallSource} (WebFlux's exchange) takes the calls that are its own; the others are bean calls: the key
 * comes from SpEL, the value is stored ({@code Flux}: the list of its elements, which stream through as they come)
 * and a duplicate gets it back decoded. An error releases the claim and restores the token. A {@code Mono}'s subscriber
 * that cancels once the call was admitted leaves the work running to its end (see {@link Relay}); a {@code Flux}'s
 * stops its stream, which is settled as cut off (the key completes without a result). Values go on on the
 * subscriber's kind of thread ({@link Handoff}).
 */
public final class ReactorCallFlow implements ReturnTypeFlow, InvocationFlow {

    private final ReactiveScopeResolver scopes;
    private final List<ReactiveCallSource> sources;
    private final long maxResultSize;

    /** @param maxResultSize {@code idempotency.request-id.max-response-size}, which also bounds a collected {@code Flux} */
    public ReactorCallFlow(ReactiveScopeResolver scopes, List<ReactiveCallSource> sources, long maxResultSize) {
        this.scopes = scopes;
        this.sources = List.copyOf(sources);
        this.maxResultSize = maxResultSize;
    }

    @Override
    public boolean supports(Class<?> returnType) {
        return Mono.class.isAssignableFrom(returnType) || Flux.class.isAssignableFrom(returnType);
    }

    @Override
    public InvocationFlow flow() {
        return this;
    }

    @Override
    public Type valueType(Method method) {
        ResolvableType returned = ResolvableType.forMethodReturnType(method);
        if (Flux.class.isAssignableFrom(returned.toClass())) {
            return ResolvableType.forClassWithGenerics(
                            List.class, returned.as(Flux.class).getGeneric(0))
                    .getType();
        }
        return returned.as(Mono.class).getGeneric(0).getType();
    }

    @Override
    public Object run(ProtectedInvocation call) {
        if (Flux.class.isAssignableFrom(call.spec().method().getReturnType())) {
            return Flux.deferContextual(context -> route(call, context, true));
        }
        return Mono.deferContextual(
                context -> Flux.from(route(call, context, false)).singleOrEmpty());
    }

    private Publisher<?> route(ProtectedInvocation call, ContextView context, boolean many) {
        for (ReactiveCallSource source : sources) {
            Publisher<?> bound = source.bind(call, context, many);
            if (bound != null) {
                return bound;
            }
        }
        return beanCall(call, context, many);
    }

    /**
     * A bean call runs on a subscription of its own, relayed to its subscriber as it asks. A {@code Mono}'s subscriber
     * that cancels once admitted (an HTTP client that disconnects, a timeout) leaves the work to complete and be
     * settled, so that a retry gets the stored result; a {@code Flux}'s cuts its stream off ({@code take(n)}).
     */
    private Flux<Object> beanCall(ProtectedInvocation call, ContextView context, boolean many) {
        CallerGate caller = new CallerGate();
        Scheduler handoff = Handoff.here();
        return Relay.run(
                admitAndRun(call, context, many, caller, handoff), context, many ? caller::cutOff : caller::leave);
    }

    private Flux<Object> admitAndRun(
            ProtectedInvocation call, ContextView context, boolean many, CallerGate caller, Scheduler handoff) {
        OperationSpec spec = call.spec();
        InvocationObserver.Scope observation = ReactiveCalls.observe(call, context);
        JsonResultCodec codec = spec.beanCall().codec();
        Mono<ProtectedCall> protectedCall = ReactiveCalls.scope(call.protection(), scopes)
                .map(scope -> call.call(
                        scope,
                        header -> null,
                        spec.id(),
                        () -> spec.beanCall()
                                .arguments()
                                .digest(call.invocation().getArguments())));
        return ReactiveCalls.admit(
                        call,
                        observation,
                        protectedCall,
                        codec::decode,
                        permit -> caller.offer(permit, call.protection().detachedRenewal()),
                        handoff)
                .flatMapMany(admitted -> {
                    if (admitted.isEmpty()) {
                        return ReactiveCalls.proceed(call, null);
                    }
                    if (admitted.get().isReplay()) {
                        observation.end(Outcome.REPLAYED, null);
                        return replay(admitted.get().replayed(), many);
                    }
                    return held(call, new OncePermit(admitted.get().permit(), handoff), observation, many);
                });
    }

    private static Flux<Object> replay(@Nullable Object stored, boolean many) {
        if (stored == null) {
            return Flux.empty();
        }
        return many ? Flux.fromIterable((List<?>) stored) : Flux.just(stored);
    }

    /**
     * Runs the method holding the permit; a success settles before the completion signal goes on. A {@code Flux}'s
     * elements are encoded as they arrive, up to {@code max-response-size}: a longer one completes its key without a
     * result (duplicates get {@link dev.idempotency.ResultNotStoredException}) and holds nothing more meanwhile; so does
     * one whose elements cannot be encoded, or that is cut off.
     */
    private Flux<Object> held(
            ProtectedInvocation call, OncePermit permit, InvocationObserver.Scope observation, boolean many) {
        JsonResultCodec codec = call.spec().beanCall().codec();
        boolean stores = call.spec().strategy() == Strategy.REQUEST_ID;
        JsonResultCodec.ListEncoding elements = many && stores ? codec.encodeList(maxResultSize) : null;
        AtomicReference<@Nullable Object> single = new AtomicReference<>();
        AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
        Mono<Object> settle = Mono.defer(() -> {
            if (!stores) {
                return permit.succeed(null);
            }
            if (elements == null) {
                return permit.settle(held -> StrategyRunner.succeed(held, codec, single.get()));
            }
            byte[] list = elements.finish();
            return list != null ? permit.succeed(list) : permit.succeedWithoutResult();
        });
        return ReactiveCalls.proceed(call, permit.permit())
                .doOnNext(value -> {
                    if (elements != null) {
                        elements.add(value);
                    } else if (stores) {
                        single.set(value);
                    }
                })
                .concatWith(settle)
                .onErrorResume(error -> {
                    failure.set(error);
                    return permit.fail().then(Mono.error(error));
                })
                // A Flux cancelled by its caller is cut off; a Mono's relay never cancels once admitted (detached).
                .doOnCancel(many ? permit::cutOff : permit::cancel)
                .doFinally(signal -> observation.end(Outcome.EXECUTED, failure.get()));
    }
}

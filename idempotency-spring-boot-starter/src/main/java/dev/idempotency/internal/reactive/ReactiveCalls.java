package dev.idempotency.internal.reactive;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.internal.aop.Unprotected;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.internal.operation.Protection;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import dev.idempotency.scope.ReactiveScopeResolver;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.ContextHolder;
import dev.idempotency.spi.Permit;
import dev.idempotency.spi.ProtectedCall;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.context.ContextView;

/** What every reactive call does alike: observe, admit without blocking, and run the method's publisher. */
public final class ReactiveCalls {

    /** Where Micrometer keeps the current Observation in a Reactor context. */
    private static final String OBSERVATION_KEY = "micrometer.observation";

    private ReactiveCalls() {}

    /** The scope of the current call, from the subscriber's context; see {@link Protection#scopeOf}. */
    public static Mono<String> scope(Protection protection, ReactiveScopeResolver scopes) {
        return scopes.currentScope()
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .map(resolved -> protection.scopeOf(resolved.orElse(null)));
    }

    /** Starts observing a reactive call, as a child of the caller's observation when its context has one. */
    public static InvocationObserver.Scope observe(ProtectedInvocation call, ContextView context) {
        return call.protection()
                .observer()
                .startDetached(call.spec().name(), call.spec().strategy(), context.getOrDefault(OBSERVATION_KEY, null));
    }

    /**
     * Admits the call when subscribed, and goes on on {@code handoff} (see {@link Handoff}). Emits the admission,
     * or empty {@link Optional} when Redis failed and the method may run unprotected ({@code on-store-failure:
     * proceed}); a rejection ends the observation and errors. A permit is offered to {@code caller} the moment Redis
     * grants it ({@link Handover}): {@code caller} fails it and answers {@code false} when its caller went away
     * meanwhile, and the returned publisher completes empty.
     */
    public static <T> Mono<Optional<StrategyRunner.Admitted<T>>> admit(
            ProtectedInvocation call,
            InvocationObserver.Scope observation,
            Mono<ProtectedCall> protectedCall,
            Function<byte[], T> decode,
            Predicate<Permit> caller,
            Scheduler handoff) {
        AtomicBoolean admissionEnded = new AtomicBoolean(); // the observation ends once, however the admission ends
        Runnable refused = () -> {
            if (admissionEnded.compareAndSet(false, true)) {
                CancellationException gone = new CancellationException("The caller went away before it was admitted");
                observation.end(Outcome.ofRejection(gone), gone);
            }
        };
        return Mono.deferContextual(context -> protectedCall
                        .flatMap(admitted -> Mono.fromFuture(() -> Handover.of(
                                StrategyRunner.admitAsync(() -> admitWithin(context, call, admitted), decode),
                                caller,
                                refused)))
                        .publishOn(handoff))
                .doOnNext(admitted -> admissionEnded.set(true))
                .map(Optional::of)
                // The caller went away while waiting for a running duplicate or a busy lock: the wait ends there.
                .doOnCancel(() -> {
                    if (admissionEnded.compareAndSet(false, true)) {
                        observation.end(Outcome.ABANDONED, null);
                    }
                })
                .onErrorResume(failure -> {
                    admissionEnded.set(true);
                    if (Unprotected.mayRunUnprotected(call, failure)) {
                        observation.end(Unprotected.outcomeOf(failure), null);
                        return Mono.just(Optional.empty());
                    }
                    observation.end(Outcome.ofRejection(failure), failure);
                    return Mono.error(failure);
                });
    }

    /**
     * Asks the strategy, inside the protected call this one is nested in, if any: a reactive call finds its outer
     * call's {@link IdempotencyContext} in its subscriber's context, not on the thread, and a lock its own call holds
     * is re-entered rather than waited for.
     */
    private static CompletableFuture<Admission> admitWithin(
            ContextView context, ProtectedInvocation call, ProtectedCall admitted) {
        IdempotencyContext outer = context.getOrDefault(IdempotencyContext.class, null);
        return outer == null
                ? call.strategy().admitAsync(admitted)
                : ContextHolder.callWith(outer, () -> call.strategy().admitAsync(admitted));
    }

    /**
     * The method's publisher, subscribed when this one is; a method that throws gives an error signal, and a plain
     * value is emitted as it is. The publisher sees the {@link IdempotencyContext} in its Reactor context.
     */
    public static Flux<Object> proceed(ProtectedInvocation call, @Nullable Permit permit) {
        Flux<Object> work = Flux.defer(() -> {
            Object returned;
            try {
                returned = permit == null ? call.proceed() : permit.callWithin(call::proceed);
            } catch (Throwable failure) {
                return Flux.error(failure);
            }
            if (returned == null) {
                return Flux.empty();
            }
            return returned instanceof Publisher<?> publisher ? Flux.from(publisher) : Flux.just(returned);
        });
        // The work's own operators read it with Mono.deferContextual(c -> ... c.get(IdempotencyContext.class) ...).
        return permit == null
                ? work
                : work.contextWrite(context -> context.put(IdempotencyContext.class, permit.context()));
    }
}

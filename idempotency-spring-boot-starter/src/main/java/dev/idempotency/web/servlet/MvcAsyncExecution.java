package dev.idempotency.web.servlet;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.internal.reactive.Relay;
import dev.idempotency.spi.Futures;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.http.ResponseEntity;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncManager;
import org.springframework.web.context.request.async.WebAsyncTask;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

/**
 * The starter owns the asynchronous work of a protected Spring MVC handler, so that neither the server's async timeout
 * nor a broken connection cancels or interrupts it, whatever the handler returns, and the work's own end is known:
 * <ul>
 *   <li>a {@code CompletionStage}: Spring MVC gets a copy, whose cancellation leaves the work alone;
 *   <li>a {@code Callable} or {@code WebAsyncTask}: run by Spring MVC as usual (its interceptors bind the security
 *       context and request attributes), on an executor whose tasks cannot be cancelled;
 *   <li>a {@code DeferredResult}: Spring MVC gets one of the starter's, which the application's passes its result on
 *       to; the application's own timeout, error and completion callbacks are therefore not called;
 *   <li>a {@code Mono}, {@code Flux} or other reactive type: subscribed by the starter, Spring MVC gets a relay whose
 *       cancellation stops only the relay;
 *   <li>a {@code StreamingResponseBody}: written by Spring MVC on an executor whose tasks cannot be cancelled;
 *   <li>an {@code SseEmitter} or other {@code ResponseBodyEmitter}: Spring MVC gets one of the starter's, which the
 *       application's sends go on to ({@link EmitterRelay}).
 * </ul>
 * Other values are the work's answer already.
 */
final class MvcAsyncExecution {

    private static final @Nullable Method DEFERRED_TIMEOUT =
            ReflectionUtils.findMethod(DeferredResult.class, "getTimeoutValue");

    static {
        if (DEFERRED_TIMEOUT != null) {
            ReflectionUtils.makeAccessible(DEFERRED_TIMEOUT);
        }
    }

    /** Told once how the work ended: its value, or what it threw. */
    @FunctionalInterface
    interface WorkEnd {
        void ended(@Nullable Object value, @Nullable Throwable failure);
    }

    private final AsyncTaskExecutor executor;

    /** @param executor runs {@code Callable}s and streaming bodies, as Spring MVC's async support would */
    MvcAsyncExecution(AsyncTaskExecutor executor) {
        this.executor = Uninterrupted.of(executor);
    }

    /** Whether the work behind {@code returned} goes on after the handler returned it. */
    static boolean isAsync(@Nullable Object returned) {
        return returned instanceof CompletionStage<?>
                || streamingBody(returned) != null
                || returned instanceof Callable<?>
                || returned instanceof WebAsyncTask<?>
                || returned instanceof DeferredResult<?>
                || reactiveAdapter(returned) != null
                || (StreamingReturnTypes.isEmitter(returned) && EmitterRelay.isAvailable());
    }

    /**
     * What Spring MVC gets in place of {@code returned}; {@code end} hears when the work behind it ends.
     *
     * @param context the protection the work runs under, bound for a reactive one
     */
    @Nullable
    Object adopt(@Nullable Object returned, WebAsyncManager async, IdempotencyContext context, WorkEnd end) {
        if (returned instanceof CompletionStage<?> stage) {
            CompletableFuture<@Nullable Object> forSpring = new CompletableFuture<>();
            stage.whenComplete((value, failure) -> {
                Throwable cause = failure == null ? null : Futures.unwrap(failure);
                end.ended(value, cause);
                if (cause == null) {
                    forSpring.complete(value);
                } else {
                    forSpring.completeExceptionally(cause);
                }
            });
            return forSpring;
        }
        if (returned instanceof WebAsyncTask<?> task) {
            AsyncTaskExecutor own = task.getExecutor();
            return new WebAsyncTask<>(
                    task.getTimeout(),
                    own == null ? executor : Uninterrupted.of(own),
                    watched(task.getCallable(), end));
        }
        if (returned instanceof Callable<?> callable) {
            async.setTaskExecutor(executor);
            return watched(callable, end);
        }
        if (returned instanceof DeferredResult<?> deferred) {
            return relay(deferred, end);
        }
        StreamingResponseBody body = streamingBody(returned);
        if (body != null) {
            async.setTaskExecutor(executor);
            return withBody(returned, watched(body, end));
        }
        ReactiveAdapter adapter = reactiveAdapter(returned);
        Object reactive = bodyOf(returned);
        if (adapter != null && reactive != null) {
            return withBody(returned, relay(reactive, adapter, context, end));
        }
        if (reactive instanceof ResponseBodyEmitter emitter) {
            return withBody(returned, EmitterRelay.adopt(emitter, end));
        }
        return returned;
    }

    /** {@code body} in place of {@code returned}'s: in its response entity, if it came in one. */
    private static Object withBody(@Nullable Object returned, Object body) {
        return returned instanceof ResponseEntity<?> entity
                ? new ResponseEntity<>(body, entity.getHeaders(), entity.getStatusCode())
                : body;
    }

    private static Callable<@Nullable Object> watched(Callable<?> callable, WorkEnd end) {
        return () -> {
            Object value;
            try {
                value = callable.call();
            } catch (Throwable failure) {
                end.ended(null, failure);
                throw failure;
            }
            end.ended(value, null);
            return value;
        };
    }

    /**
     * A stream written to its end, or cut off (an {@code IOException}: the client left or the request timed out), is
     * done; anything else it throws is the work's failure.
     */
    private static StreamingResponseBody watched(StreamingResponseBody body, WorkEnd end) {
        return out -> {
            try {
                body.writeTo(out);
            } catch (IOException cutOff) {
                end.ended(null, null);
                throw cutOff;
            } catch (RuntimeException | Error failure) {
                end.ended(null, failure);
                throw failure;
            }
            end.ended(null, null);
        };
    }

    /** A result of the starter's for Spring MVC, set when the application sets its own. */
    private static DeferredResult<@Nullable Object> relay(DeferredResult<?> application, WorkEnd end) {
        DeferredResult<@Nullable Object> forSpring = new DeferredResult<>(timeoutOf(application));
        application.setResultHandler(result -> {
            if (result instanceof Throwable failure) {
                end.ended(null, failure);
                forSpring.setErrorResult(failure);
            } else {
                end.ended(result, null);
                forSpring.setResult(result);
            }
        });
        return forSpring;
    }

    /** Subscribes to the work now; Spring MVC subscribes to a relay, whose cancel leaves the work running. */
    private static Object relay(Object returned, ReactiveAdapter adapter, IdempotencyContext context, WorkEnd end) {
        // A single value is kept for the settlement; a stream's values are its own (REQUEST_ID refuses streams).
        AtomicReference<@Nullable Object> single = new AtomicReference<>();
        Flux<Object> work = Flux.from(adapter.toPublisher(returned))
                .doOnNext(value -> {
                    if (!adapter.isMultiValue()) {
                        single.set(value);
                    }
                })
                .doOnComplete(() -> end.ended(single.get(), null))
                .doOnError(failure -> end.ended(null, failure));
        return adapter.fromPublisher(Relay.run(work, Context.of(IdempotencyContext.class, context), () -> false));
    }

    private static @Nullable StreamingResponseBody streamingBody(@Nullable Object returned) {
        return bodyOf(returned) instanceof StreamingResponseBody body ? body : null;
    }

    /** The adapter of a {@code Mono}, {@code Flux} or other reactive type returned as it is or as an entity's body. */
    private static @Nullable ReactiveAdapter reactiveAdapter(@Nullable Object returned) {
        Object body = bodyOf(returned);
        return body == null ? null : ReactiveAdapterRegistry.getSharedInstance().getAdapter(body.getClass());
    }

    private static @Nullable Object bodyOf(@Nullable Object returned) {
        return returned instanceof ResponseEntity<?> entity ? entity.getBody() : returned;
    }

    /** The application's own timeout of {@code deferred} (not public in Spring), or the default when unreadable. */
    private static @Nullable Long timeoutOf(DeferredResult<?> deferred) {
        if (DEFERRED_TIMEOUT == null) {
            return null;
        }
        try {
            return (Long) ReflectionUtils.invokeMethod(DEFERRED_TIMEOUT, deferred);
        } catch (RuntimeException unreadable) {
            return null;
        }
    }
}

package dev.idempotency.internal.reactive;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * Runs protected work on a subscription of its own, so that the caller's cancel (a client that disconnects, an outer
 * timeout, a server that stops writing to a closed connection) does not cancel it: the caller's subscriber only
 * watches. Signals reach the caller as long as it stays; what it no longer takes is handed to {@code dropped} (a
 * response's buffers are released there).
 */
public final class Detached {

    private Detached() {}

    /**
     * Subscribes to {@code work} now, in {@code context}; the returned publisher relays its signals, to one subscriber.
     *
     * @param stopOnCancel asked when the caller cancels: {@code true} cancels the work too (it was not admitted yet)
     */
    public static <T> Flux<T> run(Flux<T> work, ContextView context, BooleanSupplier stopOnCancel) {
        return run(work, context, stopOnCancel, value -> {});
    }

    /** {@link #run(Flux, ContextView, BooleanSupplier)}, handing what the caller no longer takes to {@code dropped}. */
    public static <T> Flux<T> run(
            Flux<T> work, ContextView context, BooleanSupplier stopOnCancel, Consumer<? super T> dropped) {
        DetachedRelay<T> relay = new DetachedRelay<>(Context.of(context), stopOnCancel, dropped);
        work.subscribe(relay);
        return relay;
    }
}

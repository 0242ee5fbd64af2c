package dev.idempotency.internal.reactive;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;
import reactor.util.context.ContextView;

/**
 * Runs protected work on a subscription of its own, so that the caller's cancel (a client that disconnects, an outer
 * timeout, a server that stops writing to a closed connection) does not cancel it: the caller's subscriber only
 * watches. Signals reach the caller as long as it stays; what it no longer takes is handed to {@code dropped} (a
 * response's buffers are released there).
 */
public final class Detached {

    /**
     * Slots per link of a relay's buffer. A relay carries one value, or a response's few buffers, and the caller takes
     * them at once: Reactor's default link of 256 slots, allocated twice per WebFlux call, was the hottest allocation
     * on this path. The buffer still grows by links for a long stream the caller reads slowly.
     */
    private static final int RELAY_LINK = 8;

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
        Sinks.Many<T> relay = Sinks.many()
                .unicast()
                .onBackpressureBuffer(Queues.<T>unbounded(RELAY_LINK).get());
        AtomicBoolean gone = new AtomicBoolean();
        Disposable running = work.contextWrite(context)
                .subscribe(
                        value -> {
                            if (gone.get() || relay.tryEmitNext(value).isFailure()) {
                                dropped.accept(value);
                            }
                        },
                        relay::tryEmitError,
                        relay::tryEmitComplete);
        return relay.asFlux()
                .doOnCancel(() -> {
                    gone.set(true);
                    if (stopOnCancel.getAsBoolean()) {
                        running.dispose();
                    }
                })
                .doOnDiscard(Object.class, value -> dropped.accept(cast(value)));
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object value) {
        return (T) value;
    }
}

package dev.idempotency.internal.reactive;

import java.util.function.BooleanSupplier;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.util.context.ContextView;

/**
 * Runs protected work on a subscription of its own, so that the caller's cancel (a client that disconnects, an outer
 * timeout) does not cancel it: the caller's subscriber only watches. Signals reach the caller as long as it stays.
 */
public final class Detached {

    private Detached() {}

    /**
     * Subscribes to {@code work} now, in {@code context}; the returned publisher relays its signals.
     *
     * @param stopOnCancel asked when the caller cancels: {@code true} cancels the work too (it was not admitted yet)
     */
    public static <T> Flux<T> run(Flux<T> work, ContextView context, BooleanSupplier stopOnCancel) {
        Sinks.Many<T> relay = Sinks.many().replay().all();
        Disposable running =
                work.contextWrite(context).subscribe(relay::tryEmitNext, relay::tryEmitError, relay::tryEmitComplete);
        return relay.asFlux().doOnCancel(() -> {
            if (stopOnCancel.getAsBoolean()) {
                running.dispose();
            }
        });
    }
}

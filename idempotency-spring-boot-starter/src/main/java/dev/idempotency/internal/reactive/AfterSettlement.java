package dev.idempotency.internal.reactive;

import java.util.function.Function;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A held answer sent once its call is settled: the settlement completes on the call's {@link Handoff} thread, while
 * the server asks for the answer from the thread that wrote it.
 *
 * <p>Not {@code settlement.thenMany(Flux.empty()).concatWith(values)}: Reactor's concatenation (3.8) can lose a
 * request that arrives on one thread while a source that emitted nothing completes on another, and sends it to the
 * finished source instead of the next one. The answer is then never asked for and the client waits until it leaves
 * (issue: a WebFlux 400 that never went out). {@code then} and {@code flatMapIterable} keep count of what was asked
 * for themselves, whichever thread signals first.
 */
public final class AfterSettlement {

    private AfterSettlement() {}

    /**
     * The values {@code values} gives, once {@code settlement} completed; none, and its error, if it failed.
     * {@code values} is called once, after the settlement.
     */
    public static <T> Flux<T> send(Mono<Void> settlement, Supplier<? extends Iterable<T>> values) {
        return settlement.then(Mono.fromSupplier(values)).flatMapIterable(Function.identity());
    }
}

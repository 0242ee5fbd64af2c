package dev.idempotency.internal.reactive;

import dev.idempotency.spi.Permit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/** A permit of a reactive call, settled once by whichever comes first: success, error or cancellation. */
final class OncePermit {

    private final Permit permit;
    private final AtomicBoolean settled = new AtomicBoolean();

    OncePermit(Permit permit) {
        this.permit = permit;
    }

    Permit permit() {
        return permit;
    }

    /** Stores {@code result} (or keeps the token, releases the lock); empties without a signal of its own. */
    <T> Mono<T> succeed(byte @Nullable [] result) {
        return settle(held -> held.succeed(result));
    }

    /** Completes the key without a result (too large to keep); empties without a signal of its own. */
    <T> Mono<T> succeedWithoutResult() {
        return settle(Permit::succeedWithoutResult);
    }

    /** Settles the permit as {@code how} says, unless it was settled already; empties without a signal of its own. */
    <T> Mono<T> settle(Function<Permit, CompletableFuture<Void>> how) {
        return settled.compareAndSet(false, true)
                ? Mono.fromFuture(() -> how.apply(permit), true).then(Mono.empty())
                : Mono.empty();
    }

    Mono<Void> fail() {
        return settled.compareAndSet(false, true) ? Mono.fromFuture(() -> permit.fail(), true) : Mono.empty();
    }

    /** The subscriber went away: release, without waiting (a permit's futures never fail). */
    void cancel() {
        if (settled.compareAndSet(false, true)) {
            permit.fail();
        }
    }
}

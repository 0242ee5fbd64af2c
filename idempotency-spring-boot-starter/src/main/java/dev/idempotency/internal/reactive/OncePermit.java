package dev.idempotency.internal.reactive;

import dev.idempotency.spi.Permit;
import java.util.concurrent.atomic.AtomicBoolean;
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
        return settled.compareAndSet(false, true)
                ? Mono.fromFuture(() -> permit.succeed(result), true).then(Mono.empty())
                : Mono.empty();
    }

    /** Completes the key without a result (too large to keep); empties without a signal of its own. */
    <T> Mono<T> succeedWithoutResult() {
        return settled.compareAndSet(false, true)
                ? Mono.fromFuture(permit::succeedWithoutResult, true).then(Mono.empty())
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

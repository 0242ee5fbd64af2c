package dev.idempotency.internal.reactive;

import dev.idempotency.spi.Permit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * A permit of a reactive call, settled once by whichever comes first: success, error or cancellation. What follows a
 * settlement goes on on the call's {@link Handoff}, never on the Redis thread that completed it.
 */
final class OncePermit {

    private final Permit permit;
    private final Scheduler handoff;
    private final AtomicBoolean settled = new AtomicBoolean();

    OncePermit(Permit permit, Scheduler handoff) {
        this.permit = permit;
        this.handoff = handoff;
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
                ? Mono.fromFuture(() -> how.apply(permit), true)
                        .publishOn(handoff)
                        .then(Mono.empty())
                : Mono.empty();
    }

    Mono<Void> fail() {
        return settled.compareAndSet(false, true)
                ? Mono.fromFuture(() -> permit.fail(), true).publishOn(handoff)
                : Mono.empty();
    }

    /**
     * The caller stopped taking a stream: it was cut off, so the key completes without a result (the lock is
     * released, the token kept used), without waiting.
     */
    void cutOff() {
        if (settled.compareAndSet(false, true)) {
            permit.succeedWithoutResult();
        }
    }

    /** The subscriber went away: release, without waiting (a permit's futures never fail). */
    void cancel() {
        if (settled.compareAndSet(false, true)) {
            permit.fail();
        }
    }
}

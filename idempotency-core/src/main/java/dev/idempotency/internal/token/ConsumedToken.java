package dev.idempotency.internal.token;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.Strategy;
import dev.idempotency.spi.Permit;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** A consumed token while its work runs; restored if the work fails. A token holds no lease. */
final class ConsumedToken implements Permit, IdempotencyContext {

    private final Supplier<CompletableFuture<Void>> restore;

    /** @param restore gives back the token this submit consumed (retrying while the store is unreachable) */
    ConsumedToken(Supplier<CompletableFuture<Void>> restore) {
        this.restore = restore;
    }

    @Override
    public IdempotencyContext context() {
        return this;
    }

    @Override
    public CompletableFuture<Void> succeed(byte @Nullable [] result) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> fail() {
        return restore.get(); // retried while the store is unreachable; never fails
    }

    @Override
    public Strategy strategy() {
        return Strategy.TOKEN;
    }

    @Override
    public OptionalLong fencingToken() {
        return OptionalLong.empty();
    }

    @Override
    public boolean isLeaseHeld() {
        return true;
    }

    @Override
    public Duration remaining() {
        return ChronoUnit.FOREVER.getDuration();
    }
}

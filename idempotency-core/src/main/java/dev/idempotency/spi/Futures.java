package dev.idempotency.spi;

import dev.idempotency.IdempotencyStoreUnavailableException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * Futures as the strategies use them: blocking on one with its failure as the exception the strategy threw, and
 * handing an admission over to a caller that may have given up, so that one granted too late is undone.
 */
public final class Futures {

    private static final Duration INTERRUPTED_RETRY_AFTER = Duration.ofSeconds(1);

    private Futures() {}

    /**
     * Waits for {@code future} and returns its value; a failure is rethrown as the exception it completed with
     * (unwrapped from {@link CompletionException}). Every future of this library completes in bounded time: Redis
     * commands by Lettuce's command timeout, waits by their own deadline.
     */
    public static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IdempotencyStoreUnavailableException(
                    "Interrupted while waiting for Redis", INTERRUPTED_RETRY_AFTER, ex);
        } catch (ExecutionException ex) {
            throw rethrowable(ex.getCause());
        }
    }

    /**
     * Passes what {@code source} completes with on to {@code target}, unless {@code target} was completed (cancelled by
     * a caller that gave up) first: a value that arrives then is handed to {@code unclaimed} instead, which undoes it
     * (a lock acquired for nobody is released at once). {@code source} is never cancelled, since its late value must
     * be seen to be undone: the work behind it stops by itself when it sees {@code target} done.
     */
    public static <T> CompletableFuture<T> handOver(
            CompletableFuture<? extends T> source, CompletableFuture<T> target, Consumer<? super T> unclaimed) {
        source.whenComplete((value, failure) -> {
            if (failure != null) {
                target.completeExceptionally(unwrap(failure));
            } else if (!target.complete(value)) {
                unclaimed.accept(value);
            }
        });
        return target;
    }

    /** The exception a failed future stands for, without the {@link CompletionException} wrapper. */
    public static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    private static RuntimeException rethrowable(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new CompletionException(cause);
    }
}

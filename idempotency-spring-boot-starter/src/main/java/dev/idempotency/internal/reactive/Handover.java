package dev.idempotency.internal.reactive;

import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.spi.Permit;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Where a granted permit enters a reactive call: on the thread that completes the admission (Lettuce's, as a rule),
 * in a stage of the admission itself, which nothing can skip, the permit is offered to its caller once. The offer
 * ({@link CallerGate#offer}) either hands it to a caller that is still there or undoes it at once. Deciding in a stage
 * downstream would not do: a stage cancelled by its caller between the admission's completion and its own run never
 * runs its function ({@code thenApply}), nor does an operator cancelled between receiving a value and passing it on
 * ({@code Mono.publishOn}), and a permit nobody settles is a claim or a lock renewed until the process stops.
 */
final class Handover {

    private Handover() {}

    /**
     * {@code admission}, its permit offered to the caller the moment it is granted. Completes with the admission, or
     * with {@code null} when the offer was refused (after {@code refused} ran): nobody runs the work then. Cancelling
     * the returned future cancels the admission: a wait for a running duplicate or a busy lock ends there.
     *
     * @param offer takes the permit for a caller that is still there, or fails it and answers {@code false}
     */
    static <T> CompletableFuture<StrategyRunner.Admitted<T>> of(
            CompletableFuture<StrategyRunner.Admitted<T>> admission, Predicate<Permit> offer, Runnable refused) {
        CompletableFuture<StrategyRunner.Admitted<T>> handed = new CompletableFuture<>();
        admission.whenComplete((admitted, failure) -> {
            if (failure != null) {
                handed.completeExceptionally(failure);
            } else if (admitted.isReplay()) {
                handed.complete(admitted);
            } else if (!offer.test(admitted.permit())) {
                refused.run();
                handed.complete(null);
            } else if (!handed.complete(admitted)) {
                // Taken, but its caller's stage was cancelled by something other than the caller leaving: the work
                // will not run, so the permit is undone here rather than left to be renewed.
                admitted.permit().fail();
            }
        });
        handed.whenComplete((admitted, failure) -> {
            if (handed.isCancelled()) {
                admission.cancel(false);
            }
        });
        return handed;
    }
}

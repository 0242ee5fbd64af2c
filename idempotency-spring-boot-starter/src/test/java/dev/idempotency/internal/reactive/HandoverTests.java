package dev.idempotency.internal.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.spi.Permit;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@link Handover}: a granted permit is handed to its caller or undone, whichever way the caller's end and the
 * admission's completion interleave. The interleavings are forced, not hoped for: a stage the test adds to the
 * admission after the hand-over runs before the hand-over's own (a {@link CompletableFuture} fires its dependents
 * last-registered first), on the thread that completes the admission, the way Lettuce's thread does.
 */
class HandoverTests {

    private final CallerGate caller = new CallerGate();
    private final CountingPermit permit = new CountingPermit();
    private final AtomicInteger refused = new AtomicInteger();
    private final CompletableFuture<StrategyRunner.Admitted<String>> admission = new CompletableFuture<>();

    private CompletableFuture<StrategyRunner.Admitted<String>> handOver() {
        return Handover.of(
                admission, granted -> caller.offer(granted, Duration.ofSeconds(5)), refused::incrementAndGet);
    }

    /** The caller leaves once the admission completed, before its hand-over ran: the permit is undone at once. */
    @Test
    void aCallerThatLeavesBetweenTheAdmissionAndItsHandOverLeavesNoPermitBehind() {
        CompletableFuture<StrategyRunner.Admitted<String>> handed = handOver();
        admission.whenComplete((admitted, failure) -> {
            if (caller.leave()) { // what the caller's cancel does: the gate says stop, so the admission is cancelled
                handed.cancel(false);
            }
        });

        admission.complete(new StrategyRunner.Admitted<>(permit, null));

        assertThat(handed).isCancelled();
        assertThat(permit.failed).as("the permit nobody holds is released").hasValue(1);
        assertThat(permit.detached).hasValue(0);
        assertThat(refused).hasValue(1);
    }

    /** The hand-over runs first: the caller holds the permit, and leaving then detaches the work instead. */
    @Test
    void aCallerThatLeavesAfterTheHandOverDetachesTheWork() {
        admission.whenComplete((admitted, failure) -> assertThat(caller.leave()).isFalse());
        CompletableFuture<StrategyRunner.Admitted<String>> handed = handOver();

        admission.complete(new StrategyRunner.Admitted<>(permit, null));

        assertThat(handed).isCompletedWithValueMatching(admitted -> admitted.permit() == permit);
        assertThat(permit.detached).hasValue(1);
        assertThat(permit.failed).hasValue(0);
        assertThat(refused).hasValue(0);
    }

    /** The caller leaves before the admission completed: the admission is cancelled and no permit reaches anyone. */
    @Test
    void aCallerThatLeavesBeforeTheAdmissionCancelsIt() {
        CompletableFuture<StrategyRunner.Admitted<String>> handed = handOver();
        assertThat(caller.leave()).isTrue();
        handed.cancel(false);

        assertThat(admission).isCancelled();
        assertThat(permit.failed).hasValue(0);
    }

    @Test
    void aReplayIsHandedOverWithoutAPermit() {
        CompletableFuture<StrategyRunner.Admitted<String>> handed = handOver();
        admission.complete(new StrategyRunner.Admitted<>(null, "stored"));

        assertThat(handed).isCompletedWithValueMatching(admitted -> "stored".equals(admitted.replayed()));
    }

    /** Counts what is done with it. */
    private static final class CountingPermit implements Permit {

        final AtomicInteger failed = new AtomicInteger();
        final AtomicInteger detached = new AtomicInteger();

        @Override
        public IdempotencyContext context() {
            throw new UnsupportedOperationException("not asked here");
        }

        @Override
        public CompletableFuture<Void> succeed(byte @Nullable [] result) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void detach(Duration bound) {
            detached.incrementAndGet();
        }

        @Override
        public CompletableFuture<Void> fail() {
            failed.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }
    }
}

package dev.idempotency.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class FuturesTests {

    @Test
    void aValueHandedOverReachesTheTarget() {
        CompletableFuture<String> source = new CompletableFuture<>();
        List<String> unclaimed = new ArrayList<>();
        CompletableFuture<String> target = Futures.handOver(source, new CompletableFuture<>(), unclaimed::add);
        source.complete("permit");
        assertThat(target).isCompletedWithValue("permit");
        assertThat(unclaimed).isEmpty();
    }

    @Test
    void aValueThatArrivesAfterTheCallerGaveUpIsUndone() {
        CompletableFuture<String> source = new CompletableFuture<>();
        List<String> unclaimed = new ArrayList<>();
        CompletableFuture<String> target = Futures.handOver(source, new CompletableFuture<>(), unclaimed::add);
        target.cancel(false);
        assertThat(source)
                .as("left to complete, so that its value is seen and undone")
                .isNotDone();
        source.complete("permit granted as the caller left");
        assertThat(unclaimed).containsExactly("permit granted as the caller left");
        CompletableFuture<String> late = new CompletableFuture<>();
        CompletableFuture<String> gaveUp = new CompletableFuture<>();
        Futures.handOver(late, gaveUp, unclaimed::add);
        gaveUp.completeExceptionally(new IllegalStateException("timed out"));
        late.complete("late permit");
        assertThat(unclaimed).endsWith("late permit");
    }

    @Test
    void aFailureReachesTheTargetUnwrapped() {
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletableFuture<String> target = Futures.handOver(source, new CompletableFuture<>(), value -> {});
        source.completeExceptionally(new java.util.concurrent.CompletionException(new IllegalStateException("boom")));
        assertThat(target).isCompletedExceptionally();
        assertThatThrownBy(target::join)
                .cause()
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("boom");
    }
}

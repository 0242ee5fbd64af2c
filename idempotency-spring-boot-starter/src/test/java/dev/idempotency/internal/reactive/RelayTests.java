package dev.idempotency.internal.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.internal.http.HeldBytes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

/**
 * {@link Relay}: the work runs on whatever its caller does, is asked for no more than its caller asks for (a detached
 * relay drains it a batch at a time), and nothing it produces is lost, kept, or held uncounted.
 */
class RelayTests {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private final Sinks.Many<Integer> work = Sinks.many().unicast().onBackpressureBuffer();
    private final AtomicBoolean workCancelled = new AtomicBoolean();
    private final List<Integer> dropped = new CopyOnWriteArrayList<>();
    private final HeldBytes budget = new HeldBytes(1024);

    private Flux<Integer> detached(boolean stopOnCancel) {
        return Relay.run(
                work.asFlux().doOnCancel(() -> workCancelled.set(true)),
                Context.empty(),
                () -> stopOnCancel,
                dropped::add,
                value -> 1,
                budget);
    }

    @Test
    void relaysValuesAndTheEndInOrder() {
        Flux<Integer> relay = detached(false);
        work.tryEmitNext(1);
        work.tryEmitNext(2); // before anyone subscribed: the work is subscribed at once, its values wait
        StepVerifier.create(relay)
                .expectNext(1, 2)
                .then(() -> work.tryEmitNext(3))
                .expectNext(3)
                .then(work::tryEmitComplete)
                .expectComplete()
                .verify(DEADLINE);
        assertThat(dropped).isEmpty();
    }

    @Test
    void relaysTheWorksError() {
        Flux<Integer> relay = detached(false);
        work.tryEmitNext(1);
        work.tryEmitError(new IllegalStateException("boom"));
        StepVerifier.create(relay).expectNext(1).expectErrorMessage("boom").verify(DEADLINE);
    }

    @Test
    void honoursTheCallersDemand() {
        Flux<Integer> relay = detached(false);
        IntStream.rangeClosed(1, 5).forEach(work::tryEmitNext);
        work.tryEmitComplete();
        StepVerifier.create(relay, 2)
                .expectNext(1, 2)
                .expectNoEvent(Duration.ZERO)
                .thenRequest(3)
                .expectNext(3, 4, 5)
                .expectComplete()
                .verify(DEADLINE);
    }

    @Test
    void aCallerThatCancelsLeavesTheWorkRunningAndWhatItProducesIsDropped() {
        Flux<Integer> relay = detached(false);
        work.tryEmitNext(1);
        work.tryEmitNext(2);
        StepVerifier.create(relay, 1).expectNext(1).thenCancel().verify(DEADLINE);
        work.tryEmitNext(3);
        work.tryEmitComplete();

        assertThat(workCancelled).isFalse();
        assertThat(dropped).containsExactly(2, 3); // made after the caller left: the relay drains the work
        assertThat(budget.held()).isZero();
    }

    @Test
    void aCallerThatCancelsStopsTheWorkWhenToldTo() {
        Flux<Integer> relay = detached(true);
        work.tryEmitNext(1);
        StepVerifier.create(relay, 0).thenCancel().verify(DEADLINE);

        assertThat(workCancelled).isTrue();
        assertThat(dropped).as("never asked for, so never made").isEmpty();
    }

    @Test
    void runsTheWorkInTheGivenContext() {
        Flux<String> relay = Relay.run(
                Mono.deferContextual(context -> Mono.just(context.<String>get("tenant")))
                        .flux(),
                Context.of("tenant", "blue"),
                () -> false);
        StepVerifier.create(relay).expectNext("blue").expectComplete().verify(DEADLINE);
    }

    @Test
    void relaysToOneSubscriberOnly() {
        Flux<Integer> relay = detached(false);
        relay.subscribe();
        assertThatThrownBy(() -> relay.blockFirst(DEADLINE)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void loosesNothingWhenTheWorkAndTheCallerAreOnDifferentThreads() {
        int count = 20_000;
        Flux<Integer> relay = Relay.run(
                Flux.range(0, count).subscribeOn(Schedulers.single()),
                Context.empty(),
                () -> false,
                dropped::add,
                value -> 1,
                budget);
        // The caller asks for one value at a time, from a thread of its own.
        List<Integer> received =
                relay.publishOn(Schedulers.parallel(), 1).collectList().block(DEADLINE);

        assertThat(received)
                .containsExactlyElementsOf(IntStream.range(0, count).boxed().toList());
        assertThat(dropped).isEmpty();
        assertThat(budget.held()).isZero();
    }

    @Test
    void asksTheWorkForNoMoreThanItsCallerAsksFor() {
        List<Long> asked = new CopyOnWriteArrayList<>();
        Flux<Integer> relay = Relay.run(Flux.range(0, 1000).doOnRequest(asked::add), Context.empty(), () -> true);
        StepVerifier.create(relay, 3).expectNext(0, 1, 2).thenCancel().verify(DEADLINE);

        assertThat(asked).containsExactly(3L);
    }

    @Test
    void aDetachedRelayDrainsItsWorkABatchAtATime() {
        List<Long> asked = new CopyOnWriteArrayList<>();
        AtomicBoolean ended = new AtomicBoolean();
        Flux<Integer> relay = Relay.run(
                Flux.range(0, 1000).doOnRequest(asked::add).doOnComplete(() -> ended.set(true)),
                Context.empty(),
                () -> false,
                dropped::add,
                value -> 1,
                budget);
        StepVerifier.create(relay, 1).expectNext(0).thenCancel().verify(DEADLINE);

        assertThat(ended).as("the work ran to its end").isTrue();
        assertThat(dropped).hasSize(999);
        assertThat(asked).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(Relay.BATCH));
    }

    /** A work that emits whether asked or not: what waits for the caller is held, and counted, until it is taken. */
    @Test
    void countsWhatWaitsForTheCallerAgainstTheHeldBytes() {
        Flux<Integer> relay = Relay.run(
                Flux.create(sink -> IntStream.rangeClosed(1, 3).forEach(sink::next), FluxSink.OverflowStrategy.IGNORE),
                Context.empty(),
                () -> false,
                dropped::add,
                value -> 100,
                budget);
        assertThat(budget.held()).isEqualTo(300);
        StepVerifier.create(relay, 1).expectNext(1).thenCancel().verify(DEADLINE);

        assertThat(dropped).containsExactly(2, 3);
        assertThat(budget.held()).isZero();
    }
}

package dev.idempotency.internal.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

/** {@link Detached}: the work runs on whatever its caller does, and nothing it produces is lost or kept. */
class DetachedTests {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private final Sinks.Many<Integer> work = Sinks.many().unicast().onBackpressureBuffer();
    private final AtomicBoolean workCancelled = new AtomicBoolean();
    private final List<Integer> dropped = new CopyOnWriteArrayList<>();

    private Flux<Integer> detached(boolean stopOnCancel) {
        return Detached.run(
                work.asFlux().doOnCancel(() -> workCancelled.set(true)),
                Context.empty(),
                () -> stopOnCancel,
                dropped::add);
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
        assertThat(dropped).containsExactly(2, 3); // queued when the caller left, and produced after
    }

    @Test
    void aCallerThatCancelsStopsTheWorkWhenToldTo() {
        Flux<Integer> relay = detached(true);
        work.tryEmitNext(1);
        StepVerifier.create(relay, 0).thenCancel().verify(DEADLINE);

        assertThat(workCancelled).isTrue();
        assertThat(dropped).containsExactly(1);
    }

    @Test
    void runsTheWorkInTheGivenContext() {
        Flux<String> relay = Detached.run(
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
        Flux<Integer> relay = Detached.run(
                Flux.range(0, count).subscribeOn(Schedulers.single()), Context.empty(), () -> false, dropped::add);
        // The caller asks for one value at a time, from a thread of its own.
        List<Integer> received =
                relay.publishOn(Schedulers.parallel(), 1).collectList().block(DEADLINE);

        assertThat(received)
                .containsExactlyElementsOf(IntStream.range(0, count).boxed().toList());
        assertThat(dropped).isEmpty();
    }
}

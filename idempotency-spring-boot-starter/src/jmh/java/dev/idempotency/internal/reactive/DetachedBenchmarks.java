package dev.idempotency.internal.reactive;

import dev.idempotency.internal.http.HeldBytes;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;
import reactor.util.context.Context;

/**
 * What detaching a WebFlux call's work from its caller costs ({@link Relay}, twice per protected WebFlux call: the
 * exchange and its response body), for one value, the usual answer: the relay against no relay at all, and against
 * an earlier relay (a Reactor unicast sink fed by a lambda subscriber, with peeking operators for the caller's cancel
 * and for discarded values), rebuilt here as it was. {@code relayCounted} adds what a response body's relay does
 * besides: it counts what waits in it against the held bytes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class DetachedBenchmarks {

    private final Context context = Context.of("tenant", "blue");
    private final HeldBytes held = new HeldBytes(Long.MAX_VALUE);

    /** The value straight to its subscriber: the floor. */
    @Benchmark
    public void direct(Blackhole blackhole) {
        work().contextWrite(context).subscribe(blackhole::consume);
    }

    @Benchmark
    public void relay(Blackhole blackhole) {
        Relay.run(work(), context, () -> false).subscribe(blackhole::consume);
    }

    /** The relay of a response body: what waits in it counted against the held bytes. */
    @Benchmark
    public void relayCounted(Blackhole blackhole) {
        Relay.run(work(), context, () -> false, blackhole::consume, String::length, held)
                .subscribe(blackhole::consume);
    }

    /** The relay before: built from a Reactor sink. */
    @Benchmark
    public void sinkRelay(Blackhole blackhole) {
        Sinks.Many<String> relay = Sinks.many()
                .unicast()
                .onBackpressureBuffer(Queues.<String>unbounded(8).get());
        AtomicBoolean gone = new AtomicBoolean();
        Disposable running = work().contextWrite(context)
                .subscribe(
                        value -> {
                            if (gone.get() || relay.tryEmitNext(value).isFailure()) {
                                blackhole.consume(value);
                            }
                        },
                        relay::tryEmitError,
                        relay::tryEmitComplete);
        relay.asFlux()
                .doOnCancel(() -> {
                    gone.set(true);
                    running.dispose();
                })
                .doOnDiscard(Object.class, blackhole::consume)
                .subscribe(blackhole::consume);
    }

    private static Flux<String> work() {
        return Mono.just("answer").flux();
    }
}

package dev.idempotency.metrics;

import dev.idempotency.Strategy;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import dev.idempotency.spi.StoreListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What metrics and observation cost a protected call in an application with Micrometer (Actuator's
 * {@code MeterRegistry} and {@code ObservationRegistry} with its meter handler): the request counter, the observation
 * around the call, both as the auto-configuration composes them, and the timer of one Redis call (a first
 * {@code REQUEST_ID} call makes two).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MetricsBenchmarks {

    private static final String OPERATION = "POST /request-id";

    private RequestCounter counter;
    private ObservingObserver observer;
    private InvocationObserver both;
    private MicrometerStoreListener listener;

    @Setup
    public void setUp() {
        MeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        counter = new RequestCounter(meters);
        observer = new ObservingObserver(observations);
        both = InvocationObserver.composite(List.of(observer, counter));
        listener = new MicrometerStoreListener(meters);
    }

    /** {@code idempotency.requests}: one call counted by outcome. */
    @Benchmark
    public void requestCounter() {
        counter.start(OPERATION, Strategy.REQUEST_ID).end(Outcome.values()[0], null);
    }

    /** The {@code idempotency} observation around one call, timed by the meter handler. */
    @Benchmark
    public void observation() {
        observer.start(OPERATION, Strategy.REQUEST_ID).end(Outcome.values()[0], null);
    }

    /** Both, as the auto-configuration composes them. */
    @Benchmark
    public void observationAndCounter() {
        both.start(OPERATION, Strategy.REQUEST_ID).end(Outcome.values()[0], null);
    }

    /** {@code idempotency.redis}: one Redis call timed. */
    @Benchmark
    public void redisCallTimer() {
        listener.onCall(StoreListener.REDIS, "claim", 85_000, false);
    }
}

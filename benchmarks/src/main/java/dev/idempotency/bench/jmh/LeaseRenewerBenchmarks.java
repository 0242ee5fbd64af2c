package dev.idempotency.bench.jmh;

import dev.idempotency.support.LeaseRenewer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the watchdog costs a call that ends before its first renewal (nearly every call): {@code schedule} then
 * {@code cancel} on the shared scheduler. {@code inFlight} registrations made earlier with the same lease stand for
 * concurrent requests: a new task queues behind them. With none, every new task becomes the queue's head, which wakes
 * the scheduler thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class LeaseRenewerBenchmarks {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Param({"0", "16"})
    public int inFlight;

    private LeaseRenewer renewer;
    private final List<LeaseRenewer.Registration> background = new ArrayList<>();

    @Setup
    public void setUp() {
        renewer = new LeaseRenewer();
        for (int i = 0; i < inFlight; i++) {
            background.add(renewer.schedule(LEASE, () -> true, () -> {}));
        }
    }

    @TearDown
    public void tearDown() {
        background.forEach(LeaseRenewer.Registration::cancel);
        renewer.close();
    }

    /** One call on one thread. */
    @Benchmark
    public LeaseRenewer.Registration scheduleAndCancel() {
        LeaseRenewer.Registration registration = renewer.schedule(LEASE, () -> true, () -> {});
        registration.cancel();
        return registration;
    }

    /** Two request threads at once (the machine's core count): contention on the scheduler's queue lock. */
    @Benchmark
    @Threads(2)
    public LeaseRenewer.Registration scheduleAndCancelTwoThreads() {
        LeaseRenewer.Registration registration = renewer.schedule(LEASE, () -> true, () -> {});
        registration.cancel();
        return registration;
    }
}

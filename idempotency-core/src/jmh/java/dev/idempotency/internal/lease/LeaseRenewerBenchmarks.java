package dev.idempotency.internal.lease;

import dev.idempotency.Strategy;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.spi.StoreListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
 * What the watchdog costs a call that ends before its first renewal (nearly every call): {@link LeaseRenewer#start}
 * then {@link LeaseRenewer#end}.
 *
 * <p>This replaces the benchmark of the old renewer's {@code schedule}/{@code cancel}, which put one task per call on a
 * {@code ScheduledThreadPoolExecutor} (and woke its thread whenever the new task became the queue's head). Now a lease
 * is added to a concurrent set that one timer sweeps, renewals due are sent asynchronously by the sweep, and starting
 * and ending a lease never touches the scheduler's queue. {@code inFlight} leases started earlier and still held stand
 * for concurrent requests: the set is larger, and the sweep walks them in the background.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class LeaseRenewerBenchmarks {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Supplier<CompletableFuture<Boolean>> RENEWED = () -> CompletableFuture.completedFuture(true);
    private static final Runnable NOTHING = () -> {};

    @Param({"0", "16"})
    public int inFlight;

    private Scheduling scheduling;
    private LeaseRenewer renewer;
    private final List<Lease> background = new ArrayList<>();

    @Setup
    public void setUp() {
        scheduling = new Scheduling();
        renewer = new LeaseRenewer(scheduling, StoreListener.NONE);
        for (int i = 0; i < inFlight; i++) {
            background.add(start());
        }
    }

    @TearDown
    public void tearDown() {
        background.forEach(renewer::end);
        renewer.close();
        scheduling.close();
    }

    private Lease start() {
        return renewer.start(
                Strategy.REQUEST_ID,
                "idempotency:request-id:benchmark",
                LEASE,
                System.nanoTime(),
                OptionalLong.empty(),
                RENEWED,
                NOTHING);
    }

    /** One call on one thread. */
    @Benchmark
    public Object startAndEnd() {
        Lease lease = start();
        renewer.end(lease);
        return lease;
    }

    /** Two request threads at once (the machine's core count): contention on the set and the renewer's monitor. */
    @Benchmark
    @Threads(2)
    public Object startAndEndTwoThreads() {
        Lease lease = start();
        renewer.end(lease);
        return lease;
    }
}

package dev.idempotency.testsupport;

import java.time.Duration;
import java.util.Arrays;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Bounded concurrency for tests: many tasks on many threads, released together through a start gate so they really
 * race, with a deadline for the whole run. Every failure is collected; the first one (in time) is rethrown with the
 * others attached as suppressed exceptions. A run that outlives its deadline fails with the stack of every thread
 * still busy, so a hang names the line it hangs on.
 */
public final class Race {

    /** The deadline of {@link #run(int, int, IndexedTask)}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private static final long DEFAULT_POLL_MILLIS = 50;
    private static final long TERMINATION_SECONDS = 10;
    private static final int MAX_SUPPRESSED = 10;

    private Race() {}

    /** Runs {@code task(i)} for i in [0, tasks) on {@code threads} threads within {@link #DEFAULT_TIMEOUT}. */
    public static void run(int threads, int tasks, IndexedTask task) throws Exception {
        run(threads, tasks, DEFAULT_TIMEOUT, task);
    }

    /**
     * Runs {@code task(i)} for i in [0, tasks) on {@code threads} threads. The first {@code min(threads, tasks)}
     * tasks wait at a start gate until every thread has arrived, then all start at once; the rest follow as threads
     * free up. Waits for every task, or until {@code timeout} has passed since the call, then rethrows the first
     * failure unchanged (an {@link AssertionError} stays one). On timeout the threads are interrupted and an
     * {@link IllegalStateException} names the unfinished tasks, with the first failure (if any) as its cause.
     */
    public static void run(int threads, int tasks, Duration timeout, IndexedTask task) throws Exception {
        if (threads < 1 || tasks < 0) {
            throw new IllegalArgumentException("Need threads >= 1 and tasks >= 0, not " + threads + ", " + tasks);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        int racers = Math.min(threads, tasks);
        CountDownLatch arrived = new CountDownLatch(racers);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(tasks);
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        Workers workers = new Workers();
        ExecutorService pool = Executors.newFixedThreadPool(threads, workers);
        try {
            for (int i = 0; i < tasks; i++) {
                int index = i;
                pool.execute(() -> {
                    workers.busy.add(Thread.currentThread());
                    try {
                        // With every task blocked at the gate, the first `racers` tasks hold one thread each.
                        if (index < racers) {
                            arrived.countDown();
                        }
                        gate.await();
                        task.run(index);
                    } catch (Throwable e) {
                        failures.add(e);
                    } finally {
                        workers.busy.remove(Thread.currentThread());
                        finished.countDown();
                    }
                });
            }
            boolean allArrived = arrived.await(remaining(deadline), TimeUnit.NANOSECONDS);
            gate.countDown();
            if (!allArrived || !finished.await(remaining(deadline), TimeUnit.NANOSECONDS)) {
                IllegalStateException timedOut = new IllegalStateException("Timed out after " + timeout.toMillis()
                        + " ms waiting for a race of " + tasks + " tasks on " + threads + " threads: "
                        + finished.getCount() + " unfinished"
                        + (allArrived ? "" : " (not all threads reached the gate)")
                        + "\n" + workers.busyStacks());
                Throwable first = failures.peek();
                if (first != null) {
                    timedOut.initCause(first);
                }
                throw timedOut;
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(TERMINATION_SECONDS, TimeUnit.SECONDS);
        }
        rethrowFirst(failures);
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    private static void rethrowFirst(Queue<Throwable> failures) throws Exception {
        Throwable first = failures.poll();
        if (first == null) {
            return;
        }
        int more = 0;
        for (Throwable other : failures) {
            if (more++ < MAX_SUPPRESSED) {
                first.addSuppressed(other);
            }
        }
        if (more > MAX_SUPPRESSED) {
            first.addSuppressed(new IllegalStateException("... and " + (more - MAX_SUPPRESSED) + " more failures"));
        }
        if (first instanceof Exception) {
            throw (Exception) first;
        }
        throw (Error) first;
    }

    /**
     * Polls {@code condition} every {@code pollMillis} until it holds or {@code timeout} passes; returns whether it
     * held, for a test that asserts with a message of its own.
     */
    public static boolean await(Duration timeout, long pollMillis, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            sleep(pollMillis);
        }
        return true;
    }

    /**
     * Polls {@code condition} every 50 ms until it holds; after {@code timeout} fails with an
     * {@link IllegalStateException} that says what never happened ({@code what}).
     */
    public static void until(Duration timeout, String what, BooleanSupplier condition) {
        if (!await(timeout, DEFAULT_POLL_MILLIS, condition)) {
            throw new IllegalStateException("Timed out after " + timeout.toMillis() + " ms waiting for " + what);
        }
    }

    /**
     * Sleeps on purpose, e.g. to let a lease run out. Never use it to wait for something to happen: that is
     * {@link #await} or {@link #until}, which stop as soon as it has.
     */
    public static void sleep(long millis) {
        Await.sleep(millis);
    }

    /** One task of a run; {@code index} is in [0, tasks). */
    @FunctionalInterface
    public interface IndexedTask {
        void run(int index) throws Exception;
    }

    /** Names the pool's threads and tracks which run a task, so a timeout can show where each one is stuck. */
    private static final class Workers implements ThreadFactory {

        private static final AtomicInteger RUNS = new AtomicInteger();

        private final int run = RUNS.incrementAndGet();
        private final AtomicInteger created = new AtomicInteger();
        final Set<Thread> busy = ConcurrentHashMap.newKeySet();

        @Override
        public Thread newThread(Runnable runnable) {
            Thread thread = new Thread(runnable, "race-" + run + "-" + created.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        }

        String busyStacks() {
            return busy.stream()
                    .map(thread -> thread.getName() + " (" + thread.getState() + "):\n\tat "
                            + Arrays.stream(thread.getStackTrace())
                                    .map(StackTraceElement::toString)
                                    .collect(Collectors.joining("\n\tat ")))
                    .collect(Collectors.joining("\n"));
        }
    }
}

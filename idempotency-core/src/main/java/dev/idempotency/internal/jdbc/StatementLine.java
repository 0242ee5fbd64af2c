package dev.idempotency.internal.jdbc;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The JDBC stores' threads and the bounded line of statements waiting for them. Statements that keep work already
 * running safe (renewals, completions, releases, restored tokens) go before new claims, polls and purges, so a burst of
 * new calls cannot make running leases lapse; each kind keeps its order. A full line refuses at once, and a statement
 * that waited longer than its deadline fails instead of running late: its caller has given up on it. A caller that waits
 * for its statement anyway runs it on its own thread when a thread would be free now and nobody waits in line
 * ({@link #runHere}): two hand-offs fewer, and never more statements at once than there are threads.
 */
final class StatementLine {

    /** Statements that may wait, per thread. */
    private static final int PER_THREAD = 64;

    /** The kinds that settle or keep work already admitted. */
    private static final Set<String> FIRST = Set.of("renew", "complete", "release", "restore");

    private final ThreadPoolExecutor threads;
    private final int capacity;
    private final long deadlineNanos;
    private final AtomicLong arrivals = new AtomicLong();

    /**
     * One per thread, taken by each statement while it runs, on a thread of the line or its caller's. Fair, so that a
     * statement the line took up waits before a caller that would run one here.
     */
    private final Semaphore running;

    StatementLine(int threads, long deadlineNanos) {
        this.capacity = threads * PER_THREAD;
        this.running = new Semaphore(threads, true);
        this.deadlineNanos = deadlineNanos;
        AtomicInteger count = new AtomicInteger();
        this.threads =
                new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new PriorityBlockingQueue<>(), work -> {
                    Thread thread = new Thread(work, "idempotency-jdbc-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /**
     * Runs {@code work} on one of the threads in its turn.
     *
     * @return its result; failed with {@link RejectedExecutionException} when the line is full or the statement's
     *     deadline passed while it waited, or the store is closed
     */
    <T> CompletableFuture<T> submit(String kind, Supplier<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        if (threads.getQueue().size() >= capacity) {
            return CompletableFuture.failedFuture(
                    new RejectedExecutionException("the store's line of " + capacity + " statements is full"));
        }
        long queued = System.nanoTime();
        try {
            threads.execute(new Turn(FIRST.contains(kind) ? 0 : 1, arrivals.incrementAndGet(), () -> {
                running.acquireUninterruptibly();
                try {
                    if (System.nanoTime() - queued > deadlineNanos) {
                        result.completeExceptionally(new RejectedExecutionException(
                                "waited longer than the query timeout for a store thread"));
                        return;
                    }
                    result.complete(work.get());
                } catch (RuntimeException | Error ex) {
                    result.completeExceptionally(ex);
                } finally {
                    running.release();
                }
            }));
        } catch (RejectedExecutionException closed) {
            result.completeExceptionally(closed);
        }
        return result;
    }

    /**
     * Runs {@code work} on this thread now if a thread of the line would be free and no statement waits in line;
     * otherwise as {@link #submit} does. For a caller that would only wait for the statement's end: the line's order
     * still holds, since a caller never runs ahead of a statement in line.
     */
    <T> CompletableFuture<T> runHere(String kind, Supplier<T> work) {
        if (!threads.getQueue().isEmpty() || !tryRun()) {
            return submit(kind, work);
        }
        try {
            return CompletableFuture.completedFuture(work.get());
        } catch (RuntimeException | Error ex) {
            return CompletableFuture.failedFuture(ex);
        } finally {
            running.release();
        }
    }

    private boolean tryRun() {
        try {
            return running.tryAcquire(0, TimeUnit.NANOSECONDS); // unlike tryAcquire(), queues behind waiting threads
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void close() {
        threads.shutdown();
    }

    /** One statement's place in line: by rank, then by arrival. */
    private record Turn(int rank, long arrival, Runnable work) implements Runnable, Comparable<Turn> {

        @Override
        public void run() {
            work.run();
        }

        @Override
        public int compareTo(Turn other) {
            return rank != other.rank ? Integer.compare(rank, other.rank) : Long.compare(arrival, other.arrival);
        }
    }
}

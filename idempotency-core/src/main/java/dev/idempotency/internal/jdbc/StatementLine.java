package dev.idempotency.internal.jdbc;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The JDBC stores' threads and the bounded line of statements waiting for them. Statements that keep work already
 * running safe (renewals, completions, releases, restored tokens) go before new claims, polls and purges, so a burst of
 * new calls cannot make running leases lapse; each kind keeps its order. A full line refuses at once, and a statement
 * that waited longer than its deadline fails instead of running late: its caller has given up on it.
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

    StatementLine(int threads, long deadlineNanos) {
        this.capacity = threads * PER_THREAD;
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
                if (System.nanoTime() - queued > deadlineNanos) {
                    result.completeExceptionally(
                            new RejectedExecutionException("waited longer than the query timeout for a store thread"));
                    return;
                }
                try {
                    result.complete(work.get());
                } catch (RuntimeException | Error ex) {
                    result.completeExceptionally(ex);
                }
            }));
        } catch (RejectedExecutionException closed) {
            result.completeExceptionally(closed);
        }
        return result;
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

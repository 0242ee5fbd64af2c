package dev.idempotency.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Bounded concurrency: every run has a task count and a deadline, and rethrows the first failure. */
final class Load {

    private Load() {}

    /** Runs {@code task(i)} for i in [0, tasks) on {@code threads} threads, all released at once. */
    static void run(int threads, int tasks, Duration timeout, IndexedTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>(tasks);
            for (int i = 0; i < tasks; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    start.await();
                    task.run(index);
                    return null;
                }));
            }
            start.countDown();
            long deadline = System.nanoTime() + timeout.toNanos();
            for (Future<?> future : futures) {
                future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** Polls {@code condition} every {@code pollMillis} until it holds or {@code timeout} passes; returns whether it held. */
    static boolean await(Duration timeout, long pollMillis, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            sleep(pollMillis);
        }
        return true;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    /** One task of a run. */
    @FunctionalInterface
    interface IndexedTask {
        void run(int index) throws Exception;
    }
}

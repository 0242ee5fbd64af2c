package dev.idempotency.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs many tasks from many threads released at once, so they really race, and bounds the whole run in time. */
public final class Race {

    private Race() {}

    /** Runs {@code task(i)} for i in [0, tasks) on {@code threads} threads; rethrows the first failure. */
    public static void run(int threads, int tasks, IndexedTask task) throws Exception {
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
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** One racing task. */
    @FunctionalInterface
    public interface IndexedTask {
        void run(int index) throws Exception;
    }
}

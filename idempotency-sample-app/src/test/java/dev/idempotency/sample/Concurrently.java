package dev.idempotency.sample;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/** Runs one call on many threads released together, to send duplicates as close together as a test can. */
final class Concurrently {

    private Concurrently() {}

    static <T> List<T> run(int threads, Supplier<T> call) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<CompletableFuture<T>> futures = IntStream.range(0, threads)
                    .mapToObj(i -> CompletableFuture.supplyAsync(
                            () -> {
                                awaitQuietly(start);
                                return call.get();
                            },
                            pool))
                    .toList();
            start.countDown();
            return futures.stream().map(CompletableFuture::join).toList();
        } finally {
            pool.shutdownNow();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}

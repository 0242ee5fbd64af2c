package dev.idempotency.edges;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the edge handlers did: how often each ran, how many ran at once, and the work they parked until the test
 * completes it.
 */
public class Work {

    private final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<String>> parked = new ConcurrentHashMap<>();
    private final Map<String, String> threads = new ConcurrentHashMap<>();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();

    /** Counts one execution of {@code id}'s work and parks it until {@link #finish}. */
    public CompletableFuture<String> start(String id) {
        executions.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
        threads.put(id, Thread.currentThread().getName());
        mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
        CompletableFuture<String> work = new CompletableFuture<>();
        parked.put(id, work);
        return work.whenComplete((value, failure) -> running.decrementAndGet());
    }

    /** Counts one execution that ends at once. */
    public void ran(String id) {
        executions.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
    }

    /** The thread that started {@code id}'s work last. */
    public String thread(String id) {
        return threads.get(id);
    }

    public boolean isParked(String id) {
        return parked.containsKey(id);
    }

    /** Completes the parked work of {@code id}. */
    public void finish(String id, String result) {
        CompletableFuture<String> work = parked.remove(id);
        if (work == null) {
            throw new IllegalStateException("no work parked for " + id);
        }
        work.complete(result);
    }

    /** Fails the parked work of {@code id} with {@code failure}. */
    public void fail(String id, RuntimeException failure) {
        CompletableFuture<String> work = parked.remove(id);
        if (work == null) {
            throw new IllegalStateException("no work parked for " + id);
        }
        work.completeExceptionally(failure);
    }

    public int executions(String id) {
        AtomicInteger count = executions.get(id);
        return count == null ? 0 : count.get();
    }

    /** The most executions that ran at the same time. */
    public int mostAtOnce() {
        return mostAtOnce.get();
    }
}

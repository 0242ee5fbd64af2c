package dev.idempotency.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** How often some work really ran, per business value: what an idempotent listener must keep at one. */
final class Executions {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    int increment(String value) {
        return counts.computeIfAbsent(value, key -> new AtomicInteger()).incrementAndGet();
    }

    int of(String value) {
        AtomicInteger count = counts.get(value);
        return count == null ? 0 : count.get();
    }
}

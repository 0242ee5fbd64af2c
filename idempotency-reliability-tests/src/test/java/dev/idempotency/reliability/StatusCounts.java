package dev.idempotency.reliability;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/** How often each HTTP status was answered, as the scenarios count it and the report prints it. */
final class StatusCounts {

    private StatusCounts() {}

    /** A sorted snapshot of {@code statuses}: {@code {201=5151, 409=1249}}. */
    static Map<Integer, Integer> of(Map<Integer, AtomicInteger> statuses) {
        Map<Integer, Integer> counts = new TreeMap<>();
        statuses.forEach((status, count) -> counts.put(status, count.get()));
        return counts;
    }
}

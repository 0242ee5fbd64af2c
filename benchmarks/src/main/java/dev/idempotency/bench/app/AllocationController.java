package dev.idempotency.bench.app;

import java.lang.management.ManagementFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * How many bytes the app's threads have allocated on the heap since it started (HotSpot's per-thread counters, summed
 * by {@code com.sun.management.ThreadMXBean}, exited threads included), read by {@code run.sh} before and after each
 * measured run: the difference over the requests is the allocation per request. Bench-only: not part of the starter.
 */
@RestController
public class AllocationController {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** The total so far, or -1 where the JVM does not count it. */
    @GetMapping(path = "/bench/allocated", produces = MediaType.TEXT_PLAIN_VALUE)
    public String allocated() {
        return Long.toString(THREADS.isThreadAllocatedMemoryEnabled() ? THREADS.getTotalThreadAllocatedBytes() : -1);
    }
}

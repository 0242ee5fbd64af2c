package dev.idempotency.client;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;

/**
 * What the order server saw: every exchange with the key it carried, in the order it arrived, and how often each
 * endpoint's method really ran per key. A gate holds a method mid-run to make a duplicate meet it. It keeps no times
 * for tests to compare: the client's waits are checked as asked for ({@link RecordedWaits}), never measured.
 */
final class ServerLedger {

    /** One request as the server handled it. */
    record Exchange(String method, String path, @Nullable String key, int status) {}

    /**
     * A request recorded when it arrives, so that the count is complete as soon as the client has its answer; the
     * status follows when the server's filter chain returns, which may be just after the client got the response.
     */
    static final class Received {
        private final String method;
        private final String path;
        private final @Nullable String key;
        private volatile int status;

        private Received(String method, String path, @Nullable String key) {
            this.method = method;
            this.path = path;
            this.key = key;
        }

        private Exchange exchange() {
            return new Exchange(method, path, key, status);
        }
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile CountDownLatch entered = new CountDownLatch(0);

    Received received(String method, String path, @Nullable String key) {
        Received request = new Received(method, path, key);
        received.add(request);
        return request;
    }

    void answered(Received request, int status) {
        request.status = status;
    }

    /**
     * The exchanges on {@code path} so far, in the order the server received them, once each has its status (bounded
     * wait: only the server's bookkeeping after the response may still be running).
     */
    List<Exchange> exchanges(String path) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (on(path).anyMatch(request -> request.status == 0)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("a request to " + path + " was never answered");
            }
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
        return on(path).map(Received::exchange).toList();
    }

    /** The keys the server saw for the order {@code response} created, in the order it saw them. */
    List<String> orderKeys(ResponseEntity<?> response) {
        String location = String.valueOf(response.getHeaders().getLocation());
        return exchanges("/orders").stream()
                .map(Exchange::key)
                .filter(key -> key != null && location.startsWith("/orders/o-" + key + "-"))
                .toList();
    }

    private Stream<Received> on(String path) {
        return received.stream().filter(request -> request.path.equals(path));
    }

    /** Counts one run of an endpoint's method for a key and returns the count. */
    int ran(String endpoint, String key) {
        return runs.computeIfAbsent(endpoint + ' ' + key, k -> new AtomicInteger())
                .incrementAndGet();
    }

    int runs(String endpoint, String key) {
        AtomicInteger count = runs.get(endpoint + ' ' + key);
        return count == null ? 0 : count.get();
    }

    /** Makes the next gated method wait inside its body until {@link #release()}. */
    void hold() {
        entered = new CountDownLatch(1);
        gate = new CountDownLatch(1);
    }

    void release() {
        gate.countDown();
    }

    void passGate() {
        entered.countDown();
        try {
            gate.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    void awaitEntered() throws InterruptedException {
        if (!entered.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("no request entered the gated method within 10 s");
        }
    }
}

package dev.idempotency.it;

import dev.idempotency.Idempotent;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** Handlers that end in each outcome {@code release-on} names, under the default policy and under others. */
@RestController
public class ReleaseController {

    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    /** A domain error that an exception handler maps to a 409 problem. */
    static final class OutOfStockException extends RuntimeException {

        final int run;

        OutOfStockException(int run) {
            super("out of stock");
            this.run = run;
        }
    }

    public int runs(String endpoint) {
        return runs.computeIfAbsent(endpoint, k -> new AtomicInteger()).get();
    }

    private int count(String endpoint) {
        return runs.computeIfAbsent(endpoint, k -> new AtomicInteger()).incrementAndGet();
    }

    @PostMapping("/release/returned-4xx")
    @Idempotent
    public ResponseEntity<Map<String, Object>> returnedClientError() {
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Map.of("error", "no such cart", "run", count("404")));
    }

    @PostMapping("/release/mapped-4xx")
    @Idempotent
    public String mappedClientError() {
        throw new OutOfStockException(count("mapped"));
    }

    @PostMapping("/release/mapped-4xx-kept")
    @Idempotent(policy = "keep-mapped-errors")
    public String mappedClientErrorKept() {
        throw new OutOfStockException(count("mapped-kept"));
    }

    @PostMapping("/release/returned-503")
    @Idempotent(policy = "keep-server-errors")
    public ResponseEntity<Map<String, Object>> returnedServerError() {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header("Retry-After", "30")
                .body(Map.of("error", "maintenance", "run", count("503")));
    }

    @ExceptionHandler(OutOfStockException.class)
    ResponseEntity<ProblemDetail> outOfStock(OutOfStockException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, "run " + ex.run);
        problem.setType(URI.create("urn:shop:out-of-stock"));
        return ResponseEntity.status(HttpStatus.CONFLICT).body(problem);
    }
}

package dev.idempotency.it;

import dev.idempotency.Idempotent;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

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

    @PostMapping("/release/status-exception-kept")
    @Idempotent(policy = "keep-mapped-errors")
    public String statusExceptionKept() {
        throw new ResponseStatusException(HttpStatus.CONFLICT, "out of stock, run " + count("status-exception"));
    }

    @PostMapping("/release/annotated-exception-kept")
    @Idempotent(policy = "keep-mapped-errors")
    public String annotatedExceptionKept() {
        throw new SoldOutException(count("annotated-exception"));
    }

    @PostMapping("/release/error-response-kept")
    @Idempotent(policy = "keep-mapped-errors")
    public String errorResponseKept() {
        ProblemDetail problem =
                ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, "reserved, run " + count("error-response"));
        throw new ErrorResponseException(HttpStatus.CONFLICT, problem, null);
    }

    /** A domain error whose status comes from its annotation. */
    @ResponseStatus(value = HttpStatus.CONFLICT, reason = "sold out")
    static final class SoldOutException extends RuntimeException {

        SoldOutException(int run) {
            super("sold out, run " + run);
        }
    }

    @ExceptionHandler(OutOfStockException.class)
    ResponseEntity<ProblemDetail> outOfStock(OutOfStockException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, "run " + ex.run);
        problem.setType(URI.create("urn:shop:out-of-stock"));
        return ResponseEntity.status(HttpStatus.CONFLICT).body(problem);
    }
}

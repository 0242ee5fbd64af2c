package dev.idempotency.client;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** The order server's endpoints: each answer the client half must tell apart, and a count of real runs per key. */
@RestController
public class OrderController {

    /** The body of {@code /conflict/large}: 40 KiB of padding after a retryable problem type. */
    static final String LARGE_PROBLEM = "{\"type\":\"urn:idempotency:problem:request-in-progress\",\"status\":409,"
            + "\"padding\":\"" + "x".repeat(40 * 1024) + "\"}";

    private final ServerLedger ledger;

    OrderController(ServerLedger ledger) {
        this.ledger = ledger;
    }

    @PostMapping("/orders")
    @Idempotent
    public ResponseEntity<Map<String, Object>> create(
            @RequestHeader("Idempotency-Key") String key, @RequestBody Map<String, Object> order) {
        int run = ledger.ran("orders", key);
        ledger.passGate();
        String id = "o-" + key + "-" + run;
        return ResponseEntity.created(URI.create("/orders/" + id)).body(Map.of("id", id, "item", order.get("item")));
    }

    /** Unavailable on a key's first run (the claim is released, as for any 5xx), created on the next. */
    @PostMapping("/flaky")
    @Idempotent
    public ResponseEntity<String> flaky(@RequestHeader("Idempotency-Key") String key) {
        if (ledger.ran("flaky", key) == 1) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .header(HttpHeaders.RETRY_AFTER, "1")
                    .body("warming up");
        }
        return ResponseEntity.status(HttpStatus.CREATED).body("created");
    }

    @PostMapping("/status/{status}")
    @Idempotent
    public ResponseEntity<String> status(@RequestHeader("Idempotency-Key") String key, @PathVariable int status) {
        ledger.ran("status", key);
        return ResponseEntity.status(status).body("answered " + status);
    }

    /** The application's own 409, not the library's: not something a retry can change. */
    @PostMapping("/conflict")
    public ResponseEntity<ProblemDetail> conflict() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, "Only 0 left");
        problem.setType(URI.create("urn:shop:problem:out-of-stock"));
        problem.setTitle("Out of stock");
        return ResponseEntity.status(HttpStatus.CONFLICT)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    /**
     * A 409 whose problem type says "in progress" but which is far larger than a problem document, sent without
     * {@code Content-Length}: the client must stop reading it at its limit, not retry, and pass it on whole.
     */
    @PostMapping("/conflict/large")
    public void largeConflict(HttpServletResponse response) throws IOException {
        byte[] body = LARGE_PROBLEM.getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpStatus.CONFLICT.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        OutputStream out = response.getOutputStream();
        out.write(body, 0, 1024);
        response.flushBuffer(); // committed before the end, so sent chunked
        out.write(body, 1024, body.length - 1024);
    }

    @PostMapping("/reserve/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Map<String, Object> reserve(@PathVariable String sku) {
        int run = ledger.ran("reserve", sku);
        ledger.passGate();
        return Map.of("sku", sku, "reservation", run);
    }

    @GetMapping("/orders/count")
    public Map<String, Object> count() {
        return Map.of("count", 0);
    }
}

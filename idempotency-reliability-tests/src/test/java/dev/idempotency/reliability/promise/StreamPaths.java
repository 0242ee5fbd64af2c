package dev.idempotency.reliability.promise;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * A {@code StreamingResponseBody} ({@code mvc-stream}), under {@code LOCK} and {@code TOKEN} only: a stream cannot be
 * replayed, so {@code REQUEST_ID} on it stops startup. The stream is the work: it runs, then writes its answer; the
 * status is chosen before it runs, as a streaming handler must.
 */
@RestController
public class StreamPaths {

    private final Work work;

    public StreamPaths(Work work) {
        this.work = work;
    }

    @PostMapping("/p/mvc-stream/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public ResponseEntity<StreamingResponseBody> streamLock(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return stream(ServletPaths.call(request), key, job);
    }

    @PostMapping("/p/mvc-stream/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public ResponseEntity<StreamingResponseBody> streamToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return stream(ServletPaths.call(request), key, job);
    }

    /** The status of a stream, chosen before its work runs: a stream that throws fails after it was chosen. */
    static HttpStatus status(Job job) {
        return switch (job.outcome()) {
            case "4xx" -> HttpStatus.NOT_FOUND;
            case "5xx" -> HttpStatus.BAD_GATEWAY;
            default -> HttpStatus.OK;
        };
    }

    private ResponseEntity<StreamingResponseBody> stream(String call, String key, Job job) {
        return ResponseEntity.status(status(job)).body(out -> {
            String answer = work.now(call, key, job).getBody();
            out.write(String.valueOf(answer).getBytes(StandardCharsets.UTF_8));
        });
    }
}

package dev.idempotency.reliability.promise;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import reactor.core.publisher.Flux;

/**
 * Server-sent events on Spring MVC, under {@code LOCK} and {@code TOKEN} only (a stream cannot be replayed): an
 * {@code SseEmitter} the work sends its answer to ({@code mvc-sse}), and a {@code Flux} of one event
 * ({@code mvc-flux}). The work runs after the handler returned, past Spring MVC's async timeout for some; the status is
 * chosen before it runs, as a streaming handler must ({@link StreamPaths#status}).
 */
@RestController
public class SsePaths {

    private final Work work;

    public SsePaths(Work work) {
        this.work = work;
    }

    @PostMapping("/p/mvc-sse/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public ResponseEntity<SseEmitter> sseLock(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return sse(ServletPaths.call(request), key, job);
    }

    @PostMapping("/p/mvc-sse/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public ResponseEntity<SseEmitter> sseToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return sse(ServletPaths.call(request), key, job);
    }

    @PostMapping(path = "/p/mvc-flux/lock/{key}", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public ResponseEntity<Flux<String>> fluxLock(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return flux(ServletPaths.call(request), key, job);
    }

    @PostMapping(path = "/p/mvc-flux/token/{key}", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public ResponseEntity<Flux<String>> fluxToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return flux(ServletPaths.call(request), key, job);
    }

    private ResponseEntity<SseEmitter> sse(String call, String key, Job job) {
        SseEmitter emitter = new SseEmitter();
        work.later(call, key, job).whenComplete((answer, failure) -> {
            if (failure != null) {
                emitter.completeWithError(failure);
                return;
            }
            try {
                emitter.send(SseEmitter.event().data(String.valueOf(answer.getBody())));
                emitter.complete();
            } catch (IOException | IllegalStateException gone) { // the client left, or the emitter timed out
                emitter.completeWithError(gone);
            }
        });
        return ResponseEntity.status(StreamPaths.status(job)).body(emitter);
    }

    private ResponseEntity<Flux<String>> flux(String call, String key, Job job) {
        return ResponseEntity.status(StreamPaths.status(job))
                .body(work.mono(call, key, job)
                        .map(answer -> String.valueOf(answer.getBody()))
                        .flux());
    }
}

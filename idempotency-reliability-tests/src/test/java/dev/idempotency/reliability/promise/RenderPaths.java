package dev.idempotency.reliability.promise;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The rendering path ({@code mvc-render}), with every strategy: a plain Spring MVC handler whose answer may be large,
 * over {@code max-response-size}, or fail to render once the work returned (an {@code unrenderable} outcome is an
 * object whose getter throws while Jackson writes it: delivery fails, the work did not).
 */
@RestController
public class RenderPaths {

    private final Work work;

    public RenderPaths(Work work) {
        this.work = work;
    }

    @PostMapping("/p/mvc-render/request-id")
    @Idempotent
    public ResponseEntity<Object> requestId(@RequestBody Job job, HttpServletRequest request) {
        return rendered(work.now(ServletPaths.call(request), ServletPaths.key(request), job), job);
    }

    @PostMapping("/p/mvc-render/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public ResponseEntity<Object> lock(@PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return rendered(work.now(ServletPaths.call(request), key, job), job);
    }

    @PostMapping("/p/mvc-render/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public ResponseEntity<Object> token(@PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return rendered(work.now(ServletPaths.call(request), key, job), job);
    }

    private static ResponseEntity<Object> rendered(ResponseEntity<String> answer, Job job) {
        Object body = job.outcome().equals("unrenderable") ? new Unrenderable(answer.getBody()) : answer.getBody();
        return ResponseEntity.status(answer.getStatusCode()).body(body);
    }

    /** An answer whose serialization fails half-way: its first property is written, its second throws. */
    public static final class Unrenderable {

        private final String answer;

        Unrenderable(String answer) {
            this.answer = answer;
        }

        public String getAnswer() {
            return answer;
        }

        public String getBroken() {
            throw new IllegalStateException("this answer cannot be rendered: " + answer);
        }
    }
}

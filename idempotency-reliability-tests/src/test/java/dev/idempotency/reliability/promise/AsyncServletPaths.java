package dev.idempotency.reliability.promise;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.Callable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.WebAsyncTask;
import reactor.core.publisher.Mono;

/**
 * More Spring MVC async entry paths, each with {@code REQUEST_ID}, {@code TOKEN} and {@code LOCK}: a {@code Callable}
 * ({@code mvc-callable}), a {@code WebAsyncTask} without a timeout of its own ({@code mvc-webasync}) and a
 * {@code Mono} ({@code mvc-mono}). Spring MVC's async timeout (400 ms here) applies to all three.
 */
@RestController
public class AsyncServletPaths {

    private final Work work;

    public AsyncServletPaths(Work work) {
        this.work = work;
    }

    @PostMapping("/p/mvc-callable/request-id")
    @Idempotent
    public Callable<ResponseEntity<String>> callableRequestId(@RequestBody Job job, HttpServletRequest request) {
        return callable(request, ServletPaths.key(request), job);
    }

    @PostMapping("/p/mvc-callable/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public Callable<ResponseEntity<String>> callableLock(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return callable(request, key, job);
    }

    @PostMapping("/p/mvc-callable/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public Callable<ResponseEntity<String>> callableToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return callable(request, key, job);
    }

    @PostMapping("/p/mvc-webasync/request-id")
    @Idempotent
    public WebAsyncTask<ResponseEntity<String>> taskRequestId(@RequestBody Job job, HttpServletRequest request) {
        return new WebAsyncTask<>(callable(request, ServletPaths.key(request), job));
    }

    @PostMapping("/p/mvc-webasync/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public WebAsyncTask<ResponseEntity<String>> taskLock(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return new WebAsyncTask<>(callable(request, key, job));
    }

    @PostMapping("/p/mvc-webasync/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public WebAsyncTask<ResponseEntity<String>> taskToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return new WebAsyncTask<>(callable(request, key, job));
    }

    @PostMapping("/p/mvc-mono/request-id")
    @Idempotent
    public Mono<ResponseEntity<String>> monoRequestId(@RequestBody Job job, HttpServletRequest request) {
        return work.mono(ServletPaths.call(request), ServletPaths.key(request), job);
    }

    @PostMapping("/p/mvc-mono/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public Mono<ResponseEntity<String>> monoLock(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return work.mono(ServletPaths.call(request), key, job);
    }

    @PostMapping("/p/mvc-mono/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public Mono<ResponseEntity<String>> monoToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return work.mono(ServletPaths.call(request), key, job);
    }

    /** The work runs when Spring MVC calls it, on its task executor (the call's id is read on the request thread). */
    private Callable<ResponseEntity<String>> callable(HttpServletRequest request, String key, Job job) {
        String call = ServletPaths.call(request);
        return () -> work.now(call, key, job);
    }
}

package dev.idempotency.reliability.promise;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * The Spring MVC entry paths: a plain handler, a {@code CompletableFuture}, a {@code DeferredResult} (each with
 * {@code REQUEST_ID}, {@code TOKEN} and {@code LOCK}), a bean (the same).
 */
@RestController
public class ServletPaths {

    /** The named group of every path's {@code TOKEN} handler, which the caller fetches tokens for. */
    static final String TOKEN_GROUP = "promise-token";

    private final Work work;
    private final BeanWork bean;

    public ServletPaths(Work work, BeanWork bean) {
        this.work = work;
        this.bean = bean;
    }

    @PostMapping("/p/mvc-sync/request-id")
    @Idempotent
    public ResponseEntity<String> syncRequestId(@RequestBody Job job, HttpServletRequest request) {
        return work.now(call(request), key(request), job);
    }

    @PostMapping("/p/mvc-sync/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public ResponseEntity<String> syncLock(@PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return work.now(call(request), key, job);
    }

    @PostMapping("/p/mvc-sync/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public ResponseEntity<String> syncToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return work.now(call(request), key, job);
    }

    @PostMapping("/p/mvc-future/request-id")
    @Idempotent
    public CompletableFuture<ResponseEntity<String>> futureRequestId(@RequestBody Job job, HttpServletRequest request) {
        return work.later(call(request), key(request), job);
    }

    @PostMapping("/p/mvc-future/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public CompletableFuture<ResponseEntity<String>> futureLock(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return work.later(call(request), key, job);
    }

    @PostMapping("/p/mvc-future/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public CompletableFuture<ResponseEntity<String>> futureToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return work.later(call(request), key, job);
    }

    @PostMapping("/p/mvc-deferred/request-id")
    @Idempotent
    public DeferredResult<ResponseEntity<String>> deferredRequestId(@RequestBody Job job, HttpServletRequest request) {
        return deferred(work.later(call(request), key(request), job));
    }

    @PostMapping("/p/mvc-deferred/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public DeferredResult<ResponseEntity<String>> deferredLock(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return deferred(work.later(call(request), key, job));
    }

    @PostMapping("/p/mvc-deferred/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public DeferredResult<ResponseEntity<String>> deferredToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return deferred(work.later(call(request), key, job));
    }

    /** Not protected itself: the bean method it calls is. */
    @PostMapping("/p/bean/request-id")
    public ResponseEntity<String> beanRequestId(@RequestBody Job job, HttpServletRequest request) {
        return ResponseEntity.ok(BeanWork.onBehalfOf(call(request), () -> bean.requestId(key(request), job)));
    }

    @PostMapping("/p/bean/lock/{key}")
    public ResponseEntity<String> beanLock(@PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return ResponseEntity.ok(BeanWork.onBehalfOf(call(request), () -> bean.lock(key, job)));
    }

    /** The token travels as for the handlers, in its header, and is handed to the bean as an argument. */
    @PostMapping("/p/bean/token/{key}")
    public ResponseEntity<String> beanToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return ResponseEntity.ok(BeanWork.onBehalfOf(call(request), () -> bean.token(token(request), key, job)));
    }

    private static DeferredResult<ResponseEntity<String>> deferred(CompletableFuture<ResponseEntity<String>> later) {
        // Longer than any work here: Spring MVC cannot see a DeferredResult set after its async timeout (README).
        DeferredResult<ResponseEntity<String>> result = new DeferredResult<>(10_000L);
        later.whenComplete((value, failure) -> {
            if (failure == null) {
                result.setResult(value);
            } else {
                result.setErrorResult(failure.getCause() != null ? failure.getCause() : failure);
            }
        });
        return result;
    }

    static String call(HttpServletRequest request) {
        return String.valueOf(request.getHeader("X-Call"));
    }

    static String key(HttpServletRequest request) {
        return String.valueOf(request.getHeader("Idempotency-Key"));
    }

    /** The token a caller sent to an unprotected endpoint whose bean consumes it. */
    static String token(HttpServletRequest request) {
        return String.valueOf(request.getHeader("Idempotency-Token"));
    }
}

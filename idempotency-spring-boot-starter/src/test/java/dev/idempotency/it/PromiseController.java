package dev.idempotency.it;

import com.fasterxml.jackson.annotation.JsonView;
import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.multipart.MultipartFile;

/**
 * Handlers on which a rebuilt replay would differ from what was sent: views, advice, handlers writing the response
 * themselves, and asynchronous results that complete when the test says so.
 */
@RestController
@RequestMapping("/promise")
public class PromiseController {

    final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    final Map<String, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
    final Map<String, DeferredResult<Map<String, Object>>> deferred = new ConcurrentHashMap<>();

    /** Fields of an account; {@code secret} is outside the public view. */
    public record Account(
            @JsonView(Views.Public.class) String id,
            @JsonView(Views.Public.class) int run,
            String secret) {}

    /** JSON views. */
    public interface Views {
        /** What every caller may see. */
        interface Public {}
    }

    /** The parked future of a call, or {@code null} before the handler ran (methods: this bean is a proxy). */
    public CompletableFuture<String> pending(String id) {
        return pending.get(id);
    }

    /** Takes the parked future of a call away, so that the next call parks a new one. */
    public CompletableFuture<String> takePending(String id) {
        return pending.remove(id);
    }

    /** The parked result of a deferred call, or {@code null} before the handler ran. */
    public DeferredResult<Map<String, Object>> parkedResult(String id) {
        return deferred.get(id);
    }

    public int runs(String endpoint) {
        return runs.computeIfAbsent(endpoint, key -> new AtomicInteger()).get();
    }

    private int count(String endpoint) {
        return runs.computeIfAbsent(endpoint, key -> new AtomicInteger()).incrementAndGet();
    }

    @PostMapping("/views")
    @Idempotent
    @JsonView(Views.Public.class)
    @ResponseStatus(HttpStatus.CREATED)
    public Account view() {
        return new Account("acc-1", count("views"), "s3cr3t-" + System.nanoTime());
    }

    @PostMapping("/enveloped")
    @Idempotent
    public Map<String, Object> enveloped() {
        return Map.of("run", count("enveloped"));
    }

    @PostMapping("/raw")
    @Idempotent
    public void raw(HttpServletResponse response) throws IOException {
        response.setStatus(202);
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().write("accepted #" + count("raw") + " \u00e9");
    }

    @PostMapping("/future/{id}")
    @Idempotent
    public CompletableFuture<String> future(@PathVariable String id) {
        count("future");
        return pending.computeIfAbsent(id, key -> new CompletableFuture<>());
    }

    @PostMapping("/deferred/{id}")
    @Idempotent
    public DeferredResult<Map<String, Object>> deferred(@PathVariable String id) {
        int run = count("deferred");
        DeferredResult<Map<String, Object>> result = new DeferredResult<>(30_000L);
        deferred.put(id, result);
        result.onCompletion(() -> deferred.remove(id, result));
        runs.computeIfAbsent("deferred-run-" + id, key -> new AtomicInteger()).set(run);
        return result;
    }

    @PostMapping("/locked/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public CompletableFuture<String> locked(@PathVariable String sku) {
        count("locked");
        return pending.computeIfAbsent("lock-" + sku, key -> new CompletableFuture<>());
    }

    @PostMapping("/upload")
    @Idempotent
    public Map<String, Object> upload(@RequestParam("file") MultipartFile file, @RequestParam String note) {
        return Map.of("run", count("upload"), "size", file.getSize());
    }

    @PostMapping("/callable/{id}")
    @Idempotent
    public Callable<String> callable(@PathVariable String id) {
        int run = count("callable");
        return () -> "called " + id + " #" + run;
    }

    @PostMapping("/keyed")
    @Idempotent(key = "#name + ' ' + #city")
    public Map<String, Object> keyed(@RequestParam String name, @RequestParam String city) {
        return Map.of("run", count("keyed"));
    }

    @PostMapping("/search")
    @Idempotent
    public Map<String, Object> search(@RequestParam Map<String, String> filters) {
        return Map.of("run", count("search"));
    }
}

package dev.idempotency.reliability.promise;

import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

/**
 * Unprotected endpoints that wait for the protected asynchronous bean methods of {@link BeanAsyncWork}: the value
 * (a flux's elements joined) is answered 200, an exception 500, as for {@link BeanWork}.
 */
@RestController
public class BeanAsyncPaths {

    private final BeanAsyncWork bean;

    public BeanAsyncPaths(BeanAsyncWork bean) {
        this.bean = bean;
    }

    @PostMapping("/p/bean-future/request-id")
    public ResponseEntity<String> futureRequestId(@RequestBody Job job, HttpServletRequest request) {
        return stage(request, () -> bean.futureRequestId(ServletPaths.key(request), job));
    }

    @PostMapping("/p/bean-future/lock/{key}")
    public ResponseEntity<String> futureLock(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return stage(request, () -> bean.futureLock(key, job));
    }

    @PostMapping("/p/bean-future/token/{key}")
    public ResponseEntity<String> futureToken(
            @PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return stage(request, () -> bean.futureToken(ServletPaths.token(request), key, job));
    }

    @PostMapping("/p/bean-flux/lock/{key}")
    public ResponseEntity<String> fluxLock(@PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return joined(request, bean.fluxLock(key, job));
    }

    private static ResponseEntity<String> stage(HttpServletRequest request, Supplier<CompletionStage<String>> method) {
        BeanWork.CALL.set(ServletPaths.call(request));
        CompletionStage<String> value;
        try {
            value = method.get();
        } finally {
            BeanWork.CALL.remove();
        }
        return ResponseEntity.ok(value.toCompletableFuture().join());
    }

    private static ResponseEntity<String> joined(HttpServletRequest request, Flux<String> elements) {
        String value = elements.contextWrite(Context.of(BeanAsyncWork.CALL, ServletPaths.call(request)))
                .collectList()
                .map(list -> String.join("", list))
                .block();
        return ResponseEntity.ok(value);
    }
}

package dev.idempotency.reliability.promise;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** The WebFlux entry paths: a {@code Mono} handler and a plain one, each with every strategy. */
@RestController
public class ReactivePaths {

    private final Work work;

    public ReactivePaths(Work work) {
        this.work = work;
    }

    @PostMapping("/p/webflux-mono/request-id")
    @Idempotent
    public Mono<ResponseEntity<String>> monoRequestId(@RequestBody Job job, ServerWebExchange exchange) {
        return work.mono(
                call(exchange),
                String.valueOf(exchange.getRequest().getHeaders().getFirst("Idempotency-Key")),
                job);
    }

    @PostMapping("/p/webflux-mono/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public Mono<ResponseEntity<String>> monoLock(
            @PathVariable String key, @RequestBody Job job, ServerWebExchange exchange) {
        return work.mono(call(exchange), key, job);
    }

    @PostMapping("/p/webflux-mono/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public Mono<ResponseEntity<String>> monoToken(
            @PathVariable String key, @RequestBody Job job, ServerWebExchange exchange) {
        return work.mono(call(exchange), key, job);
    }

    @PostMapping("/p/webflux-plain/request-id")
    @Idempotent
    public ResponseEntity<String> plainRequestId(@RequestBody Job job, ServerWebExchange exchange) {
        return work.now(
                call(exchange),
                String.valueOf(exchange.getRequest().getHeaders().getFirst("Idempotency-Key")),
                job);
    }

    @PostMapping("/p/webflux-plain/lock/{key}")
    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public ResponseEntity<String> plainLock(
            @PathVariable String key, @RequestBody Job job, ServerWebExchange exchange) {
        return work.now(call(exchange), key, job);
    }

    @PostMapping("/p/webflux-plain/token/{key}")
    @Idempotent(strategy = Strategy.TOKEN, operation = ServletPaths.TOKEN_GROUP)
    public ResponseEntity<String> plainToken(
            @PathVariable String key, @RequestBody Job job, ServerWebExchange exchange) {
        return work.now(call(exchange), key, job);
    }

    private static String call(ServerWebExchange exchange) {
        return String.valueOf(exchange.getRequest().getHeaders().getFirst("X-Call"));
    }
}

package dev.idempotency.reactive;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** WebFlux handlers of every reactive return type; each counts how often its body really ran. */
@RestController
public class ReactiveOrdersController {

    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private volatile Sinks.Empty<Void> gate = Sinks.empty();
    private volatile CountDownLatch entered = new CountDownLatch(1);

    public record OrderRequest(String item, int quantity) {}

    public record Order(String id, String item, int quantity) {}

    public int runs(String endpoint) {
        return runs.computeIfAbsent(endpoint, k -> new AtomicInteger()).get();
    }

    /** The next gated handler waits (without blocking a thread) until {@link #release()}. */
    public void hold() {
        gate = Sinks.empty();
        entered = new CountDownLatch(1);
    }

    public void release() {
        gate.tryEmitEmpty();
    }

    public boolean awaitEntered() throws InterruptedException {
        return entered.await(10, java.util.concurrent.TimeUnit.SECONDS);
    }

    private int count(String endpoint) {
        return runs.computeIfAbsent(endpoint, k -> new AtomicInteger()).incrementAndGet();
    }

    @PostMapping("/reactive/orders")
    @Idempotent
    public Mono<ResponseEntity<Order>> create(@RequestBody OrderRequest request) {
        return Mono.fromSupplier(() -> count("orders")).map(n -> {
            Order order = new Order("r-" + n, request.item(), request.quantity());
            return ResponseEntity.created(URI.create("/reactive/orders/" + order.id()))
                    .eTag("\"v" + n + "\"")
                    .body(order);
        });
    }

    @PostMapping("/reactive/carts/{cartId}")
    @Idempotent
    @ResponseStatus(HttpStatus.CREATED)
    public Mono<Order> add(@PathVariable String cartId, @RequestBody OrderRequest request) {
        return Mono.fromSupplier(() -> new Order(cartId + "-" + count("carts"), request.item(), request.quantity()));
    }

    @PostMapping("/reactive/batches")
    @Idempotent
    public Flux<Order> batch(@RequestBody OrderRequest request) {
        return Flux.defer(() -> {
            int n = count("batches");
            return Flux.range(1, 3).map(i -> new Order("b-" + n + "-" + i, request.item(), i));
        });
    }

    /** 1.5 MB of text, past the default max-response-size of 1 MB. */
    @PostMapping("/reactive/large")
    @Idempotent
    public Flux<String> large() {
        return Flux.defer(() -> {
            count("large");
            return Flux.range(0, 3).map(i -> String.valueOf(i).repeat(500_000));
        });
    }

    @PostMapping("/reactive/pings")
    @Idempotent
    @ResponseStatus(HttpStatus.ACCEPTED)
    public Mono<Void> ping() {
        return Mono.fromRunnable(() -> count("pings"));
    }

    @PostMapping("/reactive/slow")
    @Idempotent
    public Mono<Map<String, Object>> slow() {
        return Mono.defer(() -> {
            int n = count("slow");
            entered.countDown();
            return gate.asMono().thenReturn(Map.<String, Object>of("run", n));
        });
    }

    @PostMapping("/reactive/notes")
    @Idempotent(strategy = Strategy.TOKEN)
    @ResponseStatus(HttpStatus.CREATED)
    public Mono<Map<String, Object>> note() {
        return Mono.fromSupplier(() -> Map.of("saved", count("notes")));
    }

    @PostMapping("/reactive/stock/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Mono<Map<String, Object>> reserve(@PathVariable String sku) {
        return Mono.defer(() -> {
            count("stock");
            entered.countDown();
            return gate.asMono().thenReturn(Map.<String, Object>of("sku", sku));
        });
    }
}

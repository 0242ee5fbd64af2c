package dev.idempotency.edges;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.time.Duration;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** WebFlux handlers whose work the test ends. */
@RestController
public class ReactiveEdges {

    private final Work work;

    public ReactiveEdges(Work work) {
        this.work = work;
    }

    @PostMapping("/edge/orders/{id}")
    @Idempotent
    public Mono<String> order(@PathVariable String id) {
        return Mono.defer(() -> Mono.fromFuture(work.start(id)));
    }

    /** Keeps an error that carries a 4xx status (policy {@code keep-mapped-errors}): its response is replayed. */
    @PostMapping("/edge/orders-kept/{id}")
    @Idempotent(policy = "keep-mapped-errors")
    public Mono<String> orderKeepingClientErrors(@PathVariable String id) {
        return Mono.defer(() -> Mono.fromFuture(work.start(id)));
    }

    @PostMapping("/edge/stock/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Mono<String> deduct(@PathVariable String sku) {
        return Mono.defer(() -> Mono.fromFuture(work.start(sku)));
    }

    @PostMapping("/edge/items/{id}")
    @Idempotent
    public Flux<Item> items(@PathVariable String id) {
        return Flux.defer(() -> {
            work.ran(id);
            return Flux.just(new Item(id, 1), new Item(id, 2));
        });
    }

    /** One element of a streamable answer. */
    public record Item(String order, int line) {}

    @PostMapping("/edge/stock-entity/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Mono<ResponseEntity<String>> deductAnswering(@PathVariable String sku) {
        return Mono.defer(() -> Mono.fromFuture(work.start(sku))).map(ResponseEntity::ok);
    }

    @PostMapping("/edge/stock-timed/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Mono<ResponseEntity<String>> deductInTime(@PathVariable String sku) {
        return Mono.defer(() -> {
            work.ran(sku);
            return Mono.delay(Duration.ofMillis(400)).map(tick -> ResponseEntity.ok("deducted in time"));
        });
    }

    @PostMapping(path = "/edge/feed/{sku}", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Flux<String> feed(@PathVariable String sku) {
        return Flux.defer(() -> {
            work.ran(sku);
            return Flux.interval(Duration.ofMillis(50)).map(tick -> "tick " + tick);
        });
    }

    @PostMapping("/edge/large/{id}")
    @Idempotent
    public Mono<String> large(@PathVariable String id) {
        return Mono.fromSupplier(() -> {
            work.ran(id);
            return "x".repeat(4096);
        });
    }

    /** {@code TOKEN} on work that the test ends, as {@link ServletEdges#parkedNote}. */
    @PostMapping("/edge/notes-parked/{id}")
    @Idempotent(strategy = Strategy.TOKEN)
    public Mono<String> parkedNote(@PathVariable String id) {
        return Mono.defer(() -> Mono.fromFuture(work.start(id)));
    }

    /** {@code TOKEN} on its route, as {@link ServletEdges#note}. */
    @PostMapping("/edge/notes/{id}")
    @Idempotent(strategy = Strategy.TOKEN)
    public Mono<String> note(@PathVariable String id) {
        return Mono.fromCallable(() -> {
            work.ran(id);
            return "noted";
        });
    }

    @PostMapping("/edge/forms/one/{id}")
    @Idempotent(strategy = Strategy.TOKEN, operation = "forms")
    public Mono<String> formOne(@PathVariable String id) {
        return Mono.fromCallable(() -> {
            work.ran(id);
            return "one";
        });
    }

    @PostMapping("/edge/forms/two/{id}")
    @Idempotent(strategy = Strategy.TOKEN, operation = "forms")
    public Mono<String> formTwo(@PathVariable String id) {
        return Mono.fromCallable(() -> {
            work.ran(id);
            return "two";
        });
    }

    /** As {@link ServletEdges#pay}. */
    @PostMapping("/edge/payments/{id}")
    @Idempotent
    public Mono<String> pay(
            @PathVariable String id, @RequestBody Payment payment, @RequestHeader("X-Account") String account) {
        return Mono.fromCallable(() -> {
            work.ran(id);
            return "paid " + payment.amount() + " " + payment.currency() + " from " + account + " #"
                    + work.executions(id);
        });
    }

    /** As {@link ServletEdges#transfer}. */
    @PostMapping("/edge/transfers/{id}")
    @Idempotent(policy = "amounts-only")
    public Mono<String> transfer(@PathVariable String id, @RequestBody Map<String, Object> transfer) {
        return Mono.fromCallable(() -> {
            work.ran(id);
            return "moved " + transfer.get("amount") + " #" + work.executions(id);
        });
    }
}

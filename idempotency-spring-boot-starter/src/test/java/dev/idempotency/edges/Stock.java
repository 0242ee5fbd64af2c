package dev.idempotency.edges;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import reactor.core.publisher.Mono;

/** A protected method that {@link ReactiveBeans#restock} calls inside its own lock on the same resource. */
public class Stock {

    private final Work work;

    public Stock(Work work) {
        this.work = work;
    }

    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Mono<String> reserve(String sku) {
        return Mono.fromSupplier(() -> {
            work.ran(sku + "#reserved");
            return "reserved";
        });
    }
}

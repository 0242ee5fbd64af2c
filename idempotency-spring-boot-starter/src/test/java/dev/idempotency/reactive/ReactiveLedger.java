package dev.idempotency.reactive;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.Idempotent;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reactive bean methods outside HTTP: keys from SpEL, replays decoded to the element type. */
@Service
public class ReactiveLedger {

    private final AtomicInteger runs = new AtomicInteger();

    public int runs() {
        return runs.get();
    }

    public record Entry(String id, int run) {}

    @Idempotent(key = "#id")
    public Mono<Entry> record(String id) {
        return Mono.fromSupplier(() -> new Entry(id, runs.incrementAndGet()));
    }

    /** Whether the work sees its protection in the Reactor context, and the lease is held. */
    @Idempotent(key = "'context-' + #id")
    public Mono<Boolean> leaseHeld(String id) {
        return Mono.deferContextual(context -> Mono.just(
                context.<IdempotencyContext>get(IdempotencyContext.class).isLeaseHeld()));
    }

    /** {@code count} entries of {@code size} characters each. */
    @Idempotent(key = "'large-' + #id")
    public Flux<Entry> recordLarge(String id, int count, int size) {
        return Flux.defer(() -> {
            int run = runs.incrementAndGet();
            return Flux.range(0, count).map(i -> new Entry(id + "-" + i + "-" + "x".repeat(size), run));
        });
    }

    @Idempotent(key = "'all-' + #id")
    public Flux<Entry> recordAll(String id) {
        return Flux.defer(() -> {
            int run = runs.incrementAndGet();
            return Flux.just(new Entry(id + "-1", run), new Entry(id + "-2", run));
        });
    }
}

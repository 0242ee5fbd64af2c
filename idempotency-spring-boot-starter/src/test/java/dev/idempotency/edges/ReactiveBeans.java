package dev.idempotency.edges;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.util.concurrent.CompletableFuture;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Protected bean methods (not handlers) whose runs, threads and produced elements {@link Work} counts. */
public class ReactiveBeans {

    private final Work work;
    private final Stock stock;

    public ReactiveBeans(Work work, Stock stock) {
        this.work = work;
        this.stock = stock;
    }

    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Mono<String> deduct(String sku) {
        return Mono.fromSupplier(() -> {
            work.ran(sku);
            return "deducted";
        });
    }

    /** A body that blocks, as a body may wherever its caller may block. */
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Mono<String> deductBlocking(String sku) {
        return Mono.fromSupplier(() -> {
            work.ran(sku);
            return Mono.just("deducted").hide().block(); // hidden: a plain Mono.just never checks its thread
        });
    }

    @Idempotent(key = "#id")
    public Mono<String> record(String id) {
        return Mono.fromSupplier(() -> {
            work.ran(id);
            return "recorded " + id;
        });
    }

    /** {@code count} numbers, each produced only when asked for; counted as {@code sku#produced}. */
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Flux<Integer> count(String sku, int count) {
        return numbers(sku, count);
    }

    @Idempotent(key = "#id")
    public Flux<Integer> countRecorded(String id, int count) {
        return numbers(id, count);
    }

    private Flux<Integer> numbers(String id, int count) {
        return Flux.defer(() -> {
            work.ran(id);
            return Flux.range(0, count)
                    .doOnNext(number -> work.ran(id + "#produced"))
                    .doOnCancel(() -> work.ran(id + "#cancelled"));
        });
    }

    /** Elements the result codec cannot encode. */
    @Idempotent(key = "#id")
    public Flux<Unwritable> unencodable(String id) {
        return Flux.defer(() -> {
            work.ran(id);
            return Flux.just(new Unwritable(id), new Unwritable(id));
        });
    }

    /** A protected export, as {@link DeliveryEdges#export}. */
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Flux<DataBuffer> export(String sku, int chunks) {
        return DeliveryEdges.chunks(work, sku, chunks);
    }

    /** A lock whose work calls another protected method locking the same resource. */
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Mono<String> restock(String sku) {
        return Mono.defer(() -> {
                    work.ran(sku);
                    return stock.reserve(sku);
                })
                .map(reserved -> "restocked, " + reserved);
    }

    /** Work that the test ends, under a lock with a short lease. */
    @Idempotent(strategy = Strategy.LOCK, key = "#sku", policy = "short-lease")
    public CompletableFuture<String> deductLater(String sku) {
        return work.start(sku);
    }

    /** Takes the lock on {@code sku} without waiting. */
    @Idempotent(strategy = Strategy.LOCK, key = "#sku", policy = "no-wait")
    public String tryDeduct(String sku) {
        work.ran(sku + "#tried");
        return "deducted";
    }
}

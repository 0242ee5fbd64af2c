package dev.idempotency.edges;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.reactivestreams.Publisher;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** WebFlux handlers whose answers are large, slow to read, unwritable, or whose writes the test traces. */
@RestController
public class DeliveryEdges {

    static final int CHUNK = 64 * 1024;
    private static final byte[] BYTES = new byte[CHUNK];

    private final Work work;
    private final ReactiveBeans beans;

    public DeliveryEdges(Work work, ReactiveBeans beans) {
        this.work = work;
        this.beans = beans;
    }

    /** {@code chunks} buffers of 64 KB, each made only when asked for; counted as {@code sku#chunk}. */
    static Flux<DataBuffer> chunks(Work work, String sku, int chunks) {
        return Flux.defer(() -> {
            work.ran(sku);
            return Flux.range(0, chunks).map(i -> {
                work.ran(sku + "#chunk");
                return DefaultDataBufferFactory.sharedInstance.wrap(BYTES);
            });
        });
    }

    @PostMapping("/edge/export/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Flux<DataBuffer> export(@PathVariable String sku, @RequestParam int chunks) {
        return chunks(work, sku, chunks);
    }

    /** Not protected itself: the export is a protected bean method's {@code Flux}. */
    @PostMapping("/edge/bean-export/{sku}")
    public Flux<DataBuffer> beanExport(@PathVariable String sku, @RequestParam int chunks) {
        return beans.export(sku, chunks);
    }

    /** The thread this handler's chain ran on, and the one a protected bean method's value reached it on. */
    @GetMapping("/edge/threads/{sku}")
    public Mono<String> threadOfValue(@PathVariable String sku) {
        return Mono.defer(() -> {
            String handler = Thread.currentThread().getName();
            return beans.deduct(sku)
                    .map(value -> handler + " -> " + Thread.currentThread().getName());
        });
    }

    /** Its response's writes are traced ({@link #writeTracer}), first and replayed. */
    @PostMapping("/edge/traced/{id}")
    @Idempotent
    public Mono<String> traced(@PathVariable String id) {
        return Mono.fromSupplier(() -> {
            work.ran(id);
            return "traced " + id;
        });
    }

    @PostMapping("/edge/unwritable/{id}")
    @Idempotent
    public Mono<Unwritable> unwritable(@PathVariable String id) {
        return Mono.fromSupplier(() -> {
            work.ran(id);
            return new Unwritable(id);
        });
    }

    @PostMapping("/edge/unwritable-many/{id}")
    @Idempotent
    public Flux<Unwritable> unwritableMany(@PathVariable String id) {
        return Flux.defer(() -> {
            work.ran(id);
            return Flux.just(new Unwritable(id), new Unwritable(id));
        });
    }

    @PostMapping("/edge/unwritable-token/{id}")
    @Idempotent(strategy = Strategy.TOKEN)
    public Mono<Unwritable> unwritableSubmit(@PathVariable String id) {
        return unwritable(id);
    }

    @PostMapping("/edge/unwritable-lock/{id}")
    @Idempotent(strategy = Strategy.LOCK, key = "#id")
    public Mono<Unwritable> unwritableLocked(@PathVariable String id) {
        return unwritable(id);
    }

    @PostMapping("/edge/failing/{id}")
    @Idempotent
    public Mono<String> failing(@PathVariable String id) {
        return Mono.defer(() -> {
            work.ran(id);
            return Mono.error(new IllegalStateException("the warehouse is down"));
        });
    }

    /** Half an answer at once, the rest when the test ends the work. */
    @PostMapping("/edge/halves/{id}")
    @Idempotent
    public Flux<String> halves(@PathVariable String id) {
        return Flux.defer(() -> Flux.concat(Mono.just("x".repeat(400)), Mono.fromFuture(work.start(id))));
    }

    /** The threads that wrote each traced response, by the value of its request's {@code X-Trace} header. */
    static final Map<String, List<String>> WRITERS = new ConcurrentHashMap<>();

    /** Records the thread of every buffer written for a request with an {@code X-Trace} header. */
    static WebFilter writeTracer() {
        return new TracingFilter();
    }

    private static final class TracingFilter implements WebFilter, Ordered {

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }

        @Override
        public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
            String trace = exchange.getRequest().getHeaders().getFirst("X-Trace");
            if (trace == null) {
                return chain.filter(exchange);
            }
            List<String> writers = WRITERS.computeIfAbsent(trace, key -> new CopyOnWriteArrayList<>());
            ServerHttpResponseDecorator traced = new ServerHttpResponseDecorator(exchange.getResponse()) {
                @Override
                public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
                    return super.writeWith(Flux.from(body)
                            .doOnNext(
                                    buffer -> writers.add(Thread.currentThread().getName())));
                }
            };
            return chain.filter(exchange.mutate().response(traced).build());
        }
    }
}

package dev.idempotency.edges;

import com.fasterxml.jackson.annotation.JsonView;
import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncTask;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;
import reactor.core.publisher.Mono;

/** Spring MVC handlers whose work the test ends. */
@RestController
public class ServletEdges {

    private final Work work;
    private final Quotes quotes;

    public ServletEdges(Work work, Quotes quotes) {
        this.work = work;
        this.quotes = quotes;
    }

    /** Not protected itself: answers what the protected bean method answers, or its problem. */
    @PostMapping("/edge/quotes/{id}")
    public Quotes.Quote quote(@PathVariable String id) {
        return quotes.quote(id);
    }

    @PostMapping("/edge/orders/{id}")
    @Idempotent
    public CompletableFuture<String> order(@PathVariable String id) {
        return work.start(id);
    }

    /** Keeps an error that carries a 4xx status (policy {@code keep-mapped-errors}): its response is replayed. */
    @PostMapping("/edge/orders-kept/{id}")
    @Idempotent(policy = "keep-mapped-errors")
    public CompletableFuture<String> orderKeepingClientErrors(@PathVariable String id) {
        return work.start(id);
    }

    @PostMapping("/edge/stock/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public CompletableFuture<String> deduct(@PathVariable String sku) {
        return work.start(sku);
    }

    @PostMapping("/edge/stock-entity/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public CompletableFuture<ResponseEntity<String>> deductAnswering(@PathVariable String sku) {
        return work.start(sku).thenApply(ResponseEntity::ok);
    }

    @PostMapping("/edge/large/{id}")
    @Idempotent
    public String large(@PathVariable String id) {
        work.ran(id);
        return "x".repeat(4096);
    }

    /** The work runs; its answer cannot be serialized. */
    @PostMapping("/edge/unwritable/{id}")
    @Idempotent
    public Unwritable unwritable(@PathVariable String id) {
        work.ran(id);
        return new Unwritable(id);
    }

    @PostMapping("/edge/unwritable-note/{id}")
    @Idempotent(strategy = Strategy.TOKEN)
    public Unwritable unwritableNote(@PathVariable String id) {
        work.ran(id);
        return new Unwritable(id);
    }

    @PostMapping("/edge/unwritable-stock/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Unwritable unwritableStock(@PathVariable String sku) {
        work.ran(sku);
        return new Unwritable(sku);
    }

    /** Answers JSON: a client that accepts only something else learns it once the work ran (406). */
    @PostMapping("/edge/quote-only/{id}")
    @Idempotent
    public Quotes.Quote quoteOnly(@PathVariable String id) {
        work.ran(id);
        return new Quotes.Quote(id, 1);
    }

    /** An export far past {@code max-response-size} (1 KB here): written through as it is made, not kept. */
    @PostMapping("/edge/export/{id}")
    @Idempotent
    public byte[] export(@PathVariable String id) {
        work.ran(id);
        return new byte[32 * 1024 * 1024];
    }

    /** A {@code Callable} that blocks until the test ends its work: Spring MVC's timeout would interrupt it. */
    @PostMapping("/edge/callable/{id}")
    @Idempotent
    public Callable<String> callable(@PathVariable String id) {
        CompletableFuture<String> parked = work.start(id);
        return parked::get;
    }

    @PostMapping("/edge/web-async-task/{id}")
    @Idempotent
    public WebAsyncTask<String> webAsyncTask(@PathVariable String id) {
        CompletableFuture<String> parked = work.start(id);
        return new WebAsyncTask<>(parked::get);
    }

    @PostMapping("/edge/deferred/{id}")
    @Idempotent
    public DeferredResult<String> deferred(@PathVariable String id) {
        DeferredResult<String> result = new DeferredResult<>();
        work.start(id).whenComplete((value, failure) -> {
            if (failure == null) {
                result.setResult(value);
            } else {
                result.setErrorResult(failure);
            }
        });
        return result;
    }

    /** A {@code Mono} on Spring MVC: Spring's timeout would cancel its subscription. */
    @PostMapping("/edge/mono/{id}")
    @Idempotent
    public Mono<String> mono(@PathVariable String id) {
        return Mono.fromFuture(() -> work.start(id));
    }

    /** The same {@code Mono} as the body of a response entity, which Spring MVC handles as it handles the Mono. */
    @PostMapping("/edge/mono-entity/{id}")
    @Idempotent
    public ResponseEntity<Mono<String>> monoEntity(@PathVariable String id) {
        return ResponseEntity.ok(Mono.fromFuture(() -> work.start(id)));
    }

    /** A stream under a lock, written once the test ends its work. */
    @PostMapping("/edge/export-stream/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public StreamingResponseBody exportStream(@PathVariable String sku) {
        CompletableFuture<String> parked = work.start(sku);
        return out -> {
            try {
                out.write(parked.get().getBytes(StandardCharsets.UTF_8));
            } catch (InterruptedException | ExecutionException ex) {
                throw new IllegalStateException("the export was interrupted", ex);
            }
        };
    }

    /** Server-sent events under a lock, sent by the application's own thread once the test ends its work. */
    @PostMapping("/edge/export-sse/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public SseEmitter exportEvents(@PathVariable String sku) {
        SseEmitter emitter = new SseEmitter();
        work.start(sku).whenComplete((value, failure) -> {
            try {
                if (failure != null) {
                    emitter.completeWithError(failure);
                } else {
                    emitter.send(value);
                    emitter.complete();
                }
            } catch (IOException | IllegalStateException callerGone) {
                // as an application does: its stream is cut off, so it stops
            }
        });
        return emitter;
    }

    /** Answers through a view: a late answer must be rendered through it too. */
    @PostMapping("/edge/receipt/{id}")
    @Idempotent
    @JsonView(Receipt.Summary.class)
    public CompletableFuture<Receipt> receipt(@PathVariable String id) {
        return work.start(id).thenApply(value -> new Receipt(id, "secret " + value));
    }

    @ExceptionHandler(OutOfStock.class)
    public ResponseEntity<ProblemDetail> outOfStock(OutOfStock ex) {
        return ResponseEntity.status(HttpStatus.CONFLICT)
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage()));
    }

    /** {@code TOKEN} on its route: tokens are issued for {@code POST /edge/notes}. */
    @PostMapping("/edge/notes/{id}")
    @Idempotent(strategy = Strategy.TOKEN)
    public String note(@PathVariable String id) {
        work.ran(id);
        return "noted";
    }

    /** {@code TOKEN} on work that the test ends. */
    @PostMapping("/edge/notes-parked/{id}")
    @Idempotent(strategy = Strategy.TOKEN)
    public CompletableFuture<String> parkedNote(@PathVariable String id) {
        return work.start(id);
    }

    /** Two {@code TOKEN} handlers of one named group: a token issued for {@code forms} is good on either, once. */
    @PostMapping("/edge/forms/one/{id}")
    @Idempotent(strategy = Strategy.TOKEN, operation = "forms")
    public String formOne(@PathVariable String id) {
        work.ran(id);
        return "one";
    }

    @PostMapping("/edge/forms/two/{id}")
    @Idempotent(strategy = Strategy.TOKEN, operation = "forms")
    public String formTwo(@PathVariable String id) {
        work.ran(id);
        return "two";
    }

    /** Fingerprinted as received: the body, however it binds, and the {@code X-Account} header. */
    @PostMapping("/edge/payments/{id}")
    @Idempotent
    public String pay(
            @PathVariable String id, @RequestBody Payment payment, @RequestHeader("X-Account") String account) {
        work.ran(id);
        return "paid " + payment.amount() + " " + payment.currency() + " from " + account + " #" + work.executions(id);
    }

    /** Only {@code /amount} and {@code /currency} of the body count (policy {@code amounts-only}). */
    @PostMapping("/edge/transfers/{id}")
    @Idempotent(policy = "amounts-only")
    public String transfer(@PathVariable String id, @RequestBody Map<String, Object> transfer) {
        work.ran(id);
        return "moved " + transfer.get("amount") + " #" + work.executions(id);
    }
}

package dev.idempotency.reliability.promise;

import dev.idempotency.IdempotencyContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import reactor.core.publisher.Mono;

/** The protected work of every path: recorded in the {@link Ledger}, ending as its {@link Job} says. */
public final class Work {

    private final Ledger ledger;

    public Work(Ledger ledger) {
        this.ledger = ledger;
    }

    public Ledger ledger() {
        return ledger;
    }

    /** Runs on the calling thread. */
    public ResponseEntity<String> now(String call, String key, Job job) {
        Ledger.Started started = ledger.start(call, key, null);
        sleep(job.millis());
        return end(started, job);
    }

    /** Runs later, on another thread; the context is the one of the calling thread. */
    public CompletableFuture<ResponseEntity<String>> later(String call, String key, Job job) {
        Ledger.Started started = ledger.start(call, key, null);
        Executor delayed = CompletableFuture.delayedExecutor(job.millis(), TimeUnit.MILLISECONDS);
        return CompletableFuture.supplyAsync(() -> end(started, job), delayed);
    }

    /**
     * Runs when subscribed, after a delay instead of a sleep; recorded under the subscriber's context (the
     * {@code IdempotencyContext} a reactive call carries there).
     */
    public Mono<ResponseEntity<String>> mono(String call, String key, Job job) {
        return Mono.deferContextual(context -> {
            Ledger.Started started = start(call, key, context.getOrDefault(IdempotencyContext.class, null));
            return Mono.delay(Duration.ofMillis(job.millis())).map(tick -> end(started, job));
        });
    }

    /** Records the start under {@code context} (a reactive call's), to be ended by {@link #end}. */
    public Ledger.Started start(String call, String key, @Nullable IdempotencyContext context) {
        return ledger.start(call, key, context);
    }

    /** Ends {@code started} as {@code job} says: an answer with its status, or an exception. */
    public ResponseEntity<String> end(Ledger.Started started, Job job) {
        String answer = Job.answer(started.id(), started.key(), job);
        ledger.end(started, job.outcome(), answer);
        return switch (job.outcome()) {
            case "4xx" -> ResponseEntity.status(HttpStatus.NOT_FOUND).body(answer);
            case "5xx" -> ResponseEntity.status(HttpStatus.BAD_GATEWAY).body(answer);
            case "throw" -> throw new IllegalStateException("work failed: " + answer);
            default -> ResponseEntity.ok(answer);
        };
    }

    private static void sleep(int millis) {
        try {
            Thread.sleep(millis); // the work itself takes this long: part of the history, not a test wait
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}

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

/**
 * The protected work of every path: recorded in the {@link Ledger}, ending as its {@link Job} says. Beside the usual
 * outcomes, the rendering path's: {@code large} and {@code oversize} answer 200 with the answer, a newline and padding
 * up to {@link #LARGE} (stored: under the 1 MB {@code max-response-size}) or {@link #OVERSIZE} bytes (sent, never
 * stored), and {@code unrenderable} answers 200 with the answer, which {@link RenderPaths} wraps in a body that fails
 * to serialize. The ledger records the answer without padding; a client reads it up to the newline.
 */
public final class Work {

    static final int LARGE = 256 * 1024;
    static final int OVERSIZE = 3 * 1024 * 1024;

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
            case "large" -> ResponseEntity.ok(padded(answer, LARGE));
            case "oversize" -> ResponseEntity.ok(padded(answer, OVERSIZE));
            default -> ResponseEntity.ok(answer);
        };
    }

    private static String padded(String answer, int size) {
        return answer + "\n" + ".".repeat(Math.max(0, size - answer.length() - 1));
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

package dev.idempotency.reliability.promise;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Protected bean methods whose value comes later: a {@code CompletionStage} ({@code bean-future}, under each strategy)
 * and a {@code Flux} ({@code bean-flux}, under {@code LOCK} only: {@code REQUEST_ID} on a bean {@code Flux} stops
 * startup, a stream cannot be replayed; the answer comes in two halves). As in {@link BeanWork}, a {@code 5xx} ends as
 * an exception; the call's id travels beside the arguments (a thread-local for the stage, the
 * subscriber's context, under {@link #CALL}, for the flux), never in the payload.
 */
@Service
public class BeanAsyncWork {

    /** The key of the call's id in a {@code Flux} subscriber's context. */
    static final String CALL = "promise-call";

    private final Work work;

    public BeanAsyncWork(Work work) {
        this.work = work;
    }

    @Idempotent(key = "#key")
    public CompletionStage<String> futureRequestId(String key, Job job) {
        return future(key, job);
    }

    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public CompletionStage<String> futureLock(String key, Job job) {
        return future(key, job);
    }

    /** The token is an argument, as in {@link BeanWork#token}. */
    @Idempotent(strategy = Strategy.TOKEN, key = "#token", operation = ServletPaths.TOKEN_GROUP)
    public CompletionStage<String> futureToken(String token, String key, Job job) {
        return future(key, job);
    }

    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public Flux<String> fluxLock(String key, Job job) {
        return flux(key, job);
    }

    private CompletableFuture<String> future(String key, Job job) {
        return work.later(String.valueOf(BeanWork.CALL.get()), key, BeanWork.asBean(job))
                .thenApply(ResponseEntity::getBody);
    }

    private Flux<String> flux(String key, Job job) {
        return Flux.deferContextual(context -> {
            Ledger.Started started = work.start(
                    context.getOrDefault(CALL, "null"), key, context.getOrDefault(IdempotencyContext.class, null));
            return Mono.delay(Duration.ofMillis(job.millis()))
                    .map(tick -> String.valueOf(
                            work.end(started, BeanWork.asBean(job)).getBody()))
                    .flatMapMany(answer ->
                            Flux.just(answer.substring(0, answer.length() / 2), answer.substring(answer.length() / 2)));
        });
    }
}

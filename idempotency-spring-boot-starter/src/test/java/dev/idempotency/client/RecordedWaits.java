package dev.idempotency.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Stands in for the clients' waits between attempts: records each wait asked for and ends it at once, or once what the
 * test says happens meanwhile has happened, or, while held, when the test lets go; so tests check the waits asked for
 * and never wait them out. As an initializer it gives a client application both sleepers, which the client
 * auto-configuration picks up.
 */
final class RecordedWaits implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final List<Duration> asked = new ArrayList<>();
    private CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);
    private Runnable meanwhile = () -> {};

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        context.getBeanFactory().registerSingleton("recordedSleeper", (Sleeper) this::block);
        context.getBeanFactory().registerSingleton("recordedReactiveSleeper", (ReactiveSleeper) this::delay);
    }

    /** The waits asked for since the last {@link #clear()}, in order. */
    synchronized List<Duration> asked() {
        return List.copyOf(asked);
    }

    /** Forgets the waits asked for and what happens meanwhile, and lets every wait, held or later, end at once. */
    void clear() {
        synchronized (this) {
            asked.clear();
            meanwhile = () -> {};
        }
        release();
    }

    /**
     * Makes each wait from now on run {@code action} (bounded) before it ends: what the real wait would have let
     * happen, such as the server finishing with the attempt before, which it may still do after its answer is sent.
     */
    synchronized void meanwhile(Runnable action) {
        meanwhile = action;
    }

    /** Makes the waits asked for from now on last until {@link #release()} (bounded: 20 s, then they fail). */
    synchronized void hold() {
        gate = new CompletableFuture<>();
    }

    /** Lets the held waits end; a WebClient retry goes on in this thread, so not under this object's lock. */
    void release() {
        CompletableFuture<Void> held;
        synchronized (this) {
            held = gate;
        }
        held.complete(null);
    }

    /** Returns once the clients have asked for {@code count} waits in all; fails after 10 s. */
    synchronized void awaitAsked(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (asked.size() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("the client asked for " + asked + ", not " + count + " waits, within 10 s");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    private synchronized Wait record(Duration wait) {
        asked.add(wait);
        notifyAll();
        return new Wait(meanwhile, gate);
    }

    private void block(Duration wait) throws InterruptedException {
        Wait recorded = record(wait);
        recorded.meanwhile().run();
        try {
            recorded.gate().get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException ex) {
            throw new IllegalStateException("a held wait was never released", ex);
        }
    }

    private Mono<Void> delay(Duration wait) {
        Wait recorded = record(wait);
        // Off the event loop, as what happens meanwhile may block; the gate copied, so that a cancelled wait leaves
        // the gate alone.
        return Mono.fromRunnable(recorded.meanwhile())
                .subscribeOn(Schedulers.boundedElastic())
                .then(Mono.fromFuture(recorded.gate().copy()))
                .timeout(BOUND);
    }

    private record Wait(Runnable meanwhile, CompletableFuture<Void> gate) {}
}

package dev.idempotency.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.Assert;

/**
 * The timers of the library: lease renewal sweeps, the pauses between polls of a running duplicate, lock-wait
 * timeouts and completion retries. Nothing here blocks a thread while it waits; tasks run briefly on the scheduler's
 * thread and must not block either.
 */
public final class Scheduling implements AutoCloseable {

    private final TaskScheduler scheduler;
    private final @Nullable AutoCloseable owned;

    /** Timers on a daemon thread of their own, stopped by {@link #close()}. */
    public Scheduling() {
        ThreadPoolTaskScheduler own = new ThreadPoolTaskScheduler();
        own.setPoolSize(1);
        own.setDaemon(true);
        own.setThreadNamePrefix("idempotency-timer-");
        // Most timers are cancelled long before they are due (a call ends before its first renewal).
        own.setRemoveOnCancelPolicy(true);
        own.initialize();
        this.scheduler = own;
        this.owned = own::shutdown;
    }

    private Scheduling(SimpleAsyncTaskScheduler own) {
        this.scheduler = own;
        this.owned = own::close;
    }

    /** Timers whose tasks run on virtual threads (Java 21 and later), stopped by {@link #close()}. */
    public static Scheduling onVirtualThreads() {
        SimpleAsyncTaskScheduler own = new SimpleAsyncTaskScheduler();
        own.setVirtualThreads(true);
        own.setThreadNamePrefix("idempotency-timer-");
        return new Scheduling(own);
    }

    /** Timers on the application's scheduler, which this class never shuts down. */
    public Scheduling(TaskScheduler scheduler) {
        Assert.notNull(scheduler, "scheduler must not be null");
        this.scheduler = scheduler;
        this.owned = null;
    }

    /** A future that completes (on the scheduler's thread) once {@code delay} has passed. */
    public CompletableFuture<Void> delay(Duration delay) {
        CompletableFuture<Void> elapsed = new CompletableFuture<>();
        scheduler.schedule(() -> elapsed.complete(null), Instant.now().plus(delay));
        return elapsed;
    }

    /** Runs {@code task} every {@code period} until the returned future is cancelled. */
    public ScheduledFuture<?> repeat(Runnable task, Duration period) {
        return scheduler.scheduleAtFixedRate(task, Instant.now().plus(period), period);
    }

    @Override
    public void close() {
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception ex) {
                // shutting down: the timers have nothing left to do
            }
        }
    }
}

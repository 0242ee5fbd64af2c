package dev.idempotency.web.servlet;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.core.task.AsyncTaskExecutor;

/**
 * An executor whose tasks cannot be cancelled: Spring MVC cancels (and interrupts) the task of a {@code Callable} or
 * {@code StreamingResponseBody} when its request times out or its connection fails, but a protected call's work must
 * run to its end whatever its caller does. The task runs on {@code delegate}, with Spring's async interceptors around
 * it as usual; only {@link Future#cancel} is refused.
 */
final class Uninterrupted implements AsyncTaskExecutor {

    private final AsyncTaskExecutor delegate;

    Uninterrupted(AsyncTaskExecutor delegate) {
        this.delegate = delegate;
    }

    static AsyncTaskExecutor of(AsyncTaskExecutor executor) {
        return executor instanceof Uninterrupted ? executor : new Uninterrupted(executor);
    }

    @Override
    public void execute(Runnable task) {
        delegate.execute(task);
    }

    @Override
    public Future<?> submit(Runnable task) {
        return new Running<>(delegate.submit(task));
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return new Running<>(delegate.submit(task));
    }

    /** A task's future that refuses to cancel it. */
    private record Running<T>(Future<T> future) implements Future<T> {

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return false;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean isDone() {
            return future.isDone();
        }

        @Override
        public T get() throws InterruptedException, ExecutionException {
            return future.get();
        }

        @Override
        public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            return future.get(timeout, unit);
        }
    }
}

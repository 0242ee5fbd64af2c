package dev.idempotency.internal.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Opens a connection once, off the caller's thread (connecting blocks while Redis is slow or down, and the caller may
 * be an event loop), and hands every caller the same one; a failed attempt is forgotten so the next call tries again.
 * Lettuce reconnects an open connection by itself; a connection closed for good (its connection factory was stopped,
 * as Spring does when it pauses or refreshes a context) is replaced on the next call.
 */
final class Connector<C> implements AutoCloseable {

    /** Where connections are opened; threads exist only while a connection is being opened. */
    static final ExecutorService CONNECTING = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "idempotency-redis-connect");
        thread.setDaemon(true);
        return thread;
    });

    /** Keeps what a connection needs open until {@link #close()}. */
    interface Resources {
        void keep(AutoCloseable resource);
    }

    private final Function<Resources, C> connect;
    private final Predicate<C> closed;
    private final List<AutoCloseable> kept = new CopyOnWriteArrayList<>();
    private volatile @Nullable CompletableFuture<C> ready;
    private @Nullable CompletableFuture<C> connecting;

    /**
     * @param connect opens the connection, keeping what it needs open
     * @param closed whether a connection is closed for good
     */
    Connector(Function<Resources, C> connect, Predicate<C> closed) {
        this.connect = connect;
        this.closed = closed;
    }

    /** The connection, once open. */
    CompletableFuture<C> connection() {
        CompletableFuture<C> current = ready;
        return current != null && !closed.test(current.getNow(null)) ? current : connectOnce();
    }

    private synchronized CompletableFuture<C> connectOnce() {
        CompletableFuture<C> current = ready;
        if (current != null && !closed.test(current.getNow(null))) {
            return current;
        }
        if (current != null) {
            ready = null;
            close(); // the old connection's resources: it cannot come back
        }
        CompletableFuture<C> attempt = connecting;
        if (attempt == null) {
            CompletableFuture<C> started = CompletableFuture.supplyAsync(() -> connect.apply(kept::add), CONNECTING);
            connecting = started;
            started.whenComplete((connection, failure) -> settled(started, failure == null));
            attempt = started;
        }
        return attempt;
    }

    private synchronized void settled(CompletableFuture<C> attempt, boolean connected) {
        if (connected) {
            ready = attempt;
        }
        if (connecting == attempt) {
            connecting = null;
        }
    }

    @Override
    public void close() {
        for (AutoCloseable resource : kept) {
            try {
                resource.close();
            } catch (Exception ex) {
                // shutting down: nothing is left to protect
            }
        }
        kept.clear();
    }
}

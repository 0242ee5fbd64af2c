package dev.idempotency.internal.reactive;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Every thread choice of a reactive call: where it goes on once Redis answered (its admission, its settlement, a
 * replay), chosen by the thread its caller subscribed on.
 *
 * <table>
 *   <caption>Where a call goes on</caption>
 *   <tr><th>subscribed on</th><th>goes on on</th></tr>
 *   <tr><td>a Netty event loop (a WebFlux exchange's)</td><td>that loop</td></tr>
 *   <tr><td>a thread that may block (a request thread, {@code boundedElastic}, a virtual thread, {@code main})</td>
 *       <td>{@code boundedElastic}: the work and the caller's chain may block there, as they could where they
 *       began</td></tr>
 *   <tr><td>a non-blocking Reactor worker ({@code parallel})</td><td>{@code parallel}, where it already was</td></tr>
 *   <tr><td>a Lettuce I/O thread (a call chained after another's Redis answer)</td><td>{@code boundedElastic}</td></tr>
 * </table>
 *
 * Never the Lettuce thread that answered: the handler, encoding and capture of every protected call would queue there
 * behind each other and behind all Redis traffic, lease renewals included, and a caller that blocked there would stall
 * Redis for everyone. Never {@code parallel} for a caller that may block: a body that calls {@code block()} may do so
 * wherever its caller may.
 */
public final class Handoff {

    private static final Map<EventExecutor, Scheduler> LOOPS = new ConcurrentHashMap<>();

    private Handoff() {}

    /** The scheduler a call subscribed on the current thread goes on on. */
    public static Scheduler here() {
        if (Thread.currentThread().getName().startsWith("lettuce")) {
            return Schedulers.boundedElastic();
        }
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        if (loop != null) {
            return LOOPS.computeIfAbsent(loop, Schedulers::fromExecutor);
        }
        return Schedulers.isInNonBlockingThread() ? Schedulers.parallel() : Schedulers.boundedElastic();
    }
}

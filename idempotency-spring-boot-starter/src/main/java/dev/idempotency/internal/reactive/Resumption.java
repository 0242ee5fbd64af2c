package dev.idempotency.internal.reactive;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Where a reactive call goes on once Redis answered its admission: on the event loop that subscribed to it (a WebFlux
 * request's own Netty loop), else on Reactor's parallel scheduler; never on the Lettuce I/O thread that completed the
 * admission, where the handler, encoding and capture of every protected request would queue behind each other and
 * behind all Redis traffic (a handler that blocked there would stall Redis for everyone).
 */
final class Resumption {

    private static final Map<EventExecutor, Scheduler> LOOPS = new ConcurrentHashMap<>();

    private Resumption() {}

    /** The scheduler to resume on, for a subscription made on the current thread. */
    static Scheduler here() {
        EventExecutor loop = currentLoop();
        return loop == null ? Schedulers.parallel() : LOOPS.computeIfAbsent(loop, Schedulers::fromExecutor);
    }

    private static @Nullable EventExecutor currentLoop() {
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        // Lettuce's own loops are never a place to go on: a call subscribed there (a chained admission) moves off.
        return loop == null || Thread.currentThread().getName().startsWith("lettuce") ? null : loop;
    }
}

package dev.idempotency.internal.reactive;

import dev.idempotency.internal.http.HeldBytes;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;
import reactor.util.concurrent.Queues;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * Runs protected work on a subscription of its own, so that its caller's cancel (a client that disconnects, an outer
 * timeout, a server that stops writing to a closed connection) does not cancel work that holds a permit: the
 * caller's subscriber only watches. The relay is the work's subscriber and the caller's publisher in one object, with
 * one queue:
 * <ul>
 *   <li>it asks the work for what the caller asks for, no more, so a slow reader holds production back;</li>
 *   <li>what it queues (values come only as asked, so little and briefly) counts against {@code max-held-bytes};</li>
 *   <li>a caller that goes away stops the work when {@code stopOnCancel} says so (no permit yet, or a stream cut
 *       off); else the relay is detached: it drains the work to its end, asking for a small batch at a time, and
 *       drops what comes ({@code dropped} releases a response's buffers);</li>
 *   <li>a caller that is gone without cancelling (a response body whose connection closed before it was written)
 *       is {@link #detach detached} from outside: the work is drained the same way, and the caller only gets its
 *       end.</li>
 * </ul>
 * Signals reach the caller serially from whichever thread has them (the usual work-in-progress drain loop).
 */
public final class Relay<T> extends Flux<T> implements CoreSubscriber<T>, Subscription {

    /** What a detached relay asks the work for at a time, as it drops what came. */
    static final int BATCH = 16;

    /** Slots per link of the queue: values come only as asked for, so it holds a few at most. */
    private static final int LINK = 8;

    private static final AtomicReferenceFieldUpdater<Relay, Subscription> WORK =
            AtomicReferenceFieldUpdater.newUpdater(Relay.class, Subscription.class, "work");
    private static final AtomicLongFieldUpdater<Relay> UNSENT =
            AtomicLongFieldUpdater.newUpdater(Relay.class, "unsent");
    private static final AtomicIntegerFieldUpdater<Relay> SUBSCRIBED =
            AtomicIntegerFieldUpdater.newUpdater(Relay.class, "subscribed");
    private static final AtomicIntegerFieldUpdater<Relay> WIP =
            AtomicIntegerFieldUpdater.newUpdater(Relay.class, "wip");
    private static final AtomicLongFieldUpdater<Relay> REQUESTED =
            AtomicLongFieldUpdater.newUpdater(Relay.class, "requested");

    private final Context context;
    private final BooleanSupplier stopOnCancel;
    private final Consumer<? super T> dropped;
    private final ToLongFunction<? super T> bytes;
    private final @Nullable HeldBytes budget;
    private final Queue<T> queue = Queues.<T>unbounded(LINK).get();

    private volatile @Nullable Subscription work;
    private volatile long unsent; // asked for before the work's subscription arrived
    private volatile int subscribed;
    private volatile @Nullable CoreSubscriber<? super T> caller;
    private volatile boolean callerGone;
    private volatile boolean detached; // by callerGone, or from outside
    private volatile boolean workDone;
    private @Nullable Throwable failure; // written before workDone, read after it
    private boolean callerEnded; // touched inside the drain loop only
    private int droppedSinceAsked; // touched in onNext only, which the work calls serially
    private volatile int wip;
    private volatile long requested;

    private Relay(
            Context context,
            BooleanSupplier stopOnCancel,
            Consumer<? super T> dropped,
            ToLongFunction<? super T> bytes,
            @Nullable HeldBytes budget) {
        this.context = context;
        this.stopOnCancel = stopOnCancel;
        this.dropped = dropped;
        this.bytes = bytes;
        this.budget = budget;
    }

    /**
     * Subscribes to {@code work} now, in {@code context}; the returned publisher relays its signals, to one subscriber.
     *
     * @param stopOnCancel asked when the caller cancels: {@code true} cancels the work too
     */
    public static <T> Relay<T> run(Flux<T> work, ContextView context, BooleanSupplier stopOnCancel) {
        return run(work, context, stopOnCancel, value -> {}, value -> 0, null);
    }

    /**
     * {@link #run(Flux, ContextView, BooleanSupplier)}, handing what the caller no longer takes to {@code dropped}, and
     * counting what waits in the relay against {@code budget}, by {@code bytes}.
     */
    public static <T> Relay<T> run(
            Flux<T> work,
            ContextView context,
            BooleanSupplier stopOnCancel,
            Consumer<? super T> dropped,
            ToLongFunction<? super T> bytes,
            @Nullable HeldBytes budget) {
        Relay<T> relay = new Relay<>(Context.of(context), stopOnCancel, dropped, bytes, budget);
        work.subscribe(relay);
        return relay;
    }

    @Override
    public Context currentContext() {
        return context; // the work's context, whoever subscribes to the relay
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        if (Operators.setOnce(WORK, this, subscription)) {
            long asked = UNSENT.getAndSet(this, 0);
            if (asked > 0) {
                subscription.request(asked);
            }
        }
    }

    @Override
    public void onNext(T value) {
        if (detached) {
            dropped.accept(value);
            if (++droppedSinceAsked == BATCH / 2) { // detached: keep a batch asked for, no more
                droppedSinceAsked = 0;
                askWork(BATCH / 2);
            }
            return;
        }
        if (budget != null) {
            budget.reserve(bytes.applyAsLong(value));
        }
        queue.offer(value);
        drain();
    }

    @Override
    public void onError(Throwable error) {
        failure = error;
        workDone = true;
        drain();
    }

    @Override
    public void onComplete() {
        workDone = true;
        drain();
    }

    @Override
    public void subscribe(CoreSubscriber<? super T> actual) {
        if (!SUBSCRIBED.compareAndSet(this, 0, 1)) {
            Operators.error(actual, new IllegalStateException("A relay relays its signals to one subscriber"));
            return;
        }
        actual.onSubscribe(this);
        caller = actual; // only now: no signal may reach it before onSubscribe returned
        drain();
    }

    @Override
    public void request(long n) {
        if (Operators.validate(n) && !callerGone) {
            Operators.addCap(REQUESTED, this, n);
            askWork(n);
            drain();
        }
    }

    @Override
    public void cancel() {
        if (callerGone) {
            return;
        }
        callerGone = true;
        if (stopOnCancel.getAsBoolean()) {
            detached = true;
            Operators.terminate(WORK, this);
            drain();
        } else {
            detach();
        }
    }

    /**
     * The caller is gone, though it did not cancel: the work runs to its end, asked for a batch at a time, and what it
     * makes is dropped; the caller, if it is still subscribed, gets only the end.
     */
    public void detach() {
        if (!detached) {
            detached = true;
            askWork(BATCH);
        }
        drain();
    }

    /** Passes a demand on to the work, or keeps it until the work's subscription arrives. */
    private void askWork(long n) {
        Subscription subscription = work;
        if (subscription == null) {
            Operators.addCap(UNSENT, this, n);
            subscription = work;
            if (subscription == null) {
                return; // onSubscribe sends it
            }
            n = UNSENT.getAndSet(this, 0);
            if (n == 0) {
                return; // onSubscribe sent it
            }
        }
        subscription.request(n);
    }

    private void drain() {
        if (WIP.getAndIncrement(this) != 0) {
            return; // the thread in the loop sees this round too
        }
        int missed = 1;
        do {
            CoreSubscriber<? super T> to = caller;
            if (detached) {
                dropQueued();
            }
            if (!callerGone && to != null && !callerEnded) {
                emit(to);
            }
            missed = WIP.addAndGet(this, -missed);
        } while (missed != 0);
    }

    /** Hands the caller what it asked for, and the end of the work once nothing is left. */
    private void emit(CoreSubscriber<? super T> to) {
        long wanted = requested;
        long sent = 0;
        while (!callerGone) {
            boolean done = workDone; // read before the queue: a value offered before the end is never left behind
            boolean empty = queue.isEmpty();
            if (done && empty) {
                callerEnded = true;
                Throwable error = failure;
                if (error != null) {
                    to.onError(error);
                } else {
                    to.onComplete();
                }
                return;
            }
            if (empty || sent == wanted) {
                break;
            }
            to.onNext(unqueue());
            sent++;
        }
        if (sent != 0 && wanted != Long.MAX_VALUE) {
            REQUESTED.addAndGet(this, -sent);
        }
    }

    private void dropQueued() {
        T value;
        while ((value = queue.poll()) != null) {
            giveBack(value);
            dropped.accept(value);
        }
    }

    private T unqueue() {
        T value = queue.poll();
        giveBack(value);
        return value;
    }

    private void giveBack(T value) {
        if (budget != null) {
            budget.release(bytes.applyAsLong(value));
        }
    }
}

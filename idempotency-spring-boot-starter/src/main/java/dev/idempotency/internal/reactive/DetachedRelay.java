package dev.idempotency.internal.reactive;

import java.util.Queue;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;
import reactor.util.concurrent.Queues;
import reactor.util.context.Context;

/**
 * The subscriber of {@link Detached} work and the publisher its caller subscribes to, in one object: the work is
 * requested in full, its values queue until the caller asks for them, and the caller's cancel only stops the relay
 * (the work too when {@code stopOnCancel} says so). One object and one queue per call, in place of a Reactor sink with
 * its serializing wrapper, a lambda subscriber and two peeking operators (less than half the time and the bytes,
 * {@code DetachedBenchmarks}); the drain loop is the usual work-in-progress counter, so signals reach the caller
 * serially from whichever thread has them.
 */
final class DetachedRelay<T> extends Flux<T> implements CoreSubscriber<T>, Subscription {

    /**
     * Slots per link of the queue. A relay carries one value, or a response's few buffers, and the caller takes them
     * at once; a long stream that the caller reads slowly grows the queue by links.
     */
    private static final int LINK = 8;

    private static final AtomicReferenceFieldUpdater<DetachedRelay, Subscription> WORK =
            AtomicReferenceFieldUpdater.newUpdater(DetachedRelay.class, Subscription.class, "work");
    private static final AtomicIntegerFieldUpdater<DetachedRelay> SUBSCRIBED =
            AtomicIntegerFieldUpdater.newUpdater(DetachedRelay.class, "subscribed");
    private static final AtomicIntegerFieldUpdater<DetachedRelay> WIP =
            AtomicIntegerFieldUpdater.newUpdater(DetachedRelay.class, "wip");
    private static final AtomicLongFieldUpdater<DetachedRelay> REQUESTED =
            AtomicLongFieldUpdater.newUpdater(DetachedRelay.class, "requested");

    private final Context context;
    private final BooleanSupplier stopOnCancel;
    private final Consumer<? super T> dropped;
    private final Queue<T> queue = Queues.<T>unbounded(LINK).get();

    private volatile @Nullable Subscription work;
    private volatile int subscribed;
    private volatile @Nullable CoreSubscriber<? super T> caller;
    private volatile boolean callerGone;
    private volatile boolean workDone;
    private @Nullable Throwable failure; // written before workDone, read after it
    private boolean callerEnded; // touched inside the drain loop only
    private volatile int wip;
    private volatile long requested;

    DetachedRelay(Context context, BooleanSupplier stopOnCancel, Consumer<? super T> dropped) {
        this.context = context;
        this.stopOnCancel = stopOnCancel;
        this.dropped = dropped;
    }

    @Override
    public Context currentContext() {
        return context; // the work's context, whoever subscribes to the relay
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        if (Operators.setOnce(WORK, this, subscription)) {
            subscription.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(T value) {
        if (callerGone) {
            dropped.accept(value);
            return;
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
            Operators.error(actual, new IllegalStateException("Detached work relays its signals to one subscriber"));
            return;
        }
        actual.onSubscribe(this);
        caller = actual; // only now: no signal may reach it before onSubscribe returned
        drain();
    }

    @Override
    public void request(long n) {
        if (Operators.validate(n)) {
            Operators.addCap(REQUESTED, this, n);
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
            Operators.terminate(WORK, this);
        }
        drain();
    }

    private void drain() {
        if (WIP.getAndIncrement(this) != 0) {
            return; // the thread in the loop sees this round too
        }
        int missed = 1;
        do {
            CoreSubscriber<? super T> to = caller;
            if (callerGone) {
                dropQueued();
            } else if (to != null && !callerEnded) {
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
            to.onNext(queue.poll());
            sent++;
        }
        if (sent != 0 && wanted != Long.MAX_VALUE) {
            REQUESTED.addAndGet(this, -sent);
        }
    }

    private void dropQueued() {
        T value;
        while ((value = queue.poll()) != null) {
            dropped.accept(value);
        }
    }
}

package dev.idempotency.web.reactive;

import dev.idempotency.internal.http.HeldBody;
import dev.idempotency.internal.http.HeldBytes;
import dev.idempotency.internal.http.HeldCall;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.StoredResponse;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.reactive.CallerGate;
import dev.idempotency.internal.reactive.Handoff;
import dev.idempotency.internal.reactive.Relay;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.context.ContextView;

/**
 * One exchange through the {@link IdempotencyWebFilter}: an idempotent handler leaves its held call here (or the
 * stored response a duplicate gets), and the response settles it once, before the response is committed, so that a
 * client retrying the moment it has the response finds the record stored.
 */
final class ExchangeState {

    /** Key of the state in the Reactor context of the exchange. */
    static final String KEY = ExchangeState.class.getName();

    private final ReplayedHeaders replayedHeaders;
    private final long maxBytes;
    private final HeldBytes budget;
    private final OperationRegistry operations;
    private final AtomicBoolean settled = new AtomicBoolean();
    private final AtomicBoolean replayed = new AtomicBoolean();
    private final CallerGate caller = new CallerGate();
    private volatile @Nullable HeldCall held;
    private volatile @Nullable StoredResponse replay;
    private volatile @Nullable Throwable failure;
    private volatile @Nullable Relay<?> body;
    private volatile boolean left;
    private final ContextView context;
    private final Scheduler handoff;
    private @Nullable ServerWebExchange exchange;

    /**
     * @param context the Reactor context the exchange runs in (Spring Security's context among others), for handlers
     *     that run outside of it
     * @param handoff where the exchange goes on once Redis answered: its event loop ({@link Handoff})
     */
    ExchangeState(
            ReplayedHeaders replayedHeaders,
            long maxBytes,
            HeldBytes budget,
            OperationRegistry operations,
            ContextView context,
            Scheduler handoff) {
        this.replayedHeaders = replayedHeaders;
        this.maxBytes = maxBytes;
        this.budget = budget;
        this.operations = operations;
        this.context = context;
        this.handoff = handoff;
    }

    /** Whether the exchange's handler is an {@code @Idempotent} method (known once the handler was mapped). */
    boolean protectedHandler() {
        return exchange().getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE) instanceof HandlerMethod handler
                && operations.find(handler.getMethod(), handler.getBeanType()) != null;
    }

    /** The exchange as the handler sees it, with the recording response; set once, before the handler runs. */
    void attach(ServerWebExchange recorded) {
        this.exchange = recorded;
    }

    ServerWebExchange exchange() {
        ServerWebExchange current = exchange;
        if (current == null) {
            throw new IllegalStateException("no exchange attached");
        }
        return current;
    }

    ContextView context() {
        return context;
    }

    static @Nullable ExchangeState of(ContextView context) {
        return context.getOrDefault(KEY, null);
    }

    /** Where the exchange goes on once Redis answered (see {@link Handoff}). */
    Scheduler handoff() {
        return handoff;
    }

    long maxBytes() {
        return maxBytes;
    }

    /** The bound on the bytes held across all exchanges in flight. */
    HeldBytes budget() {
        return budget;
    }

    /**
     * Holds the admitted call until the response settles it: {@code false} when the client went away before it was
     * admitted; its permit is failed then, and the work is not to run ({@link CallerGate#offer}).
     */
    boolean offer(HeldCall call) {
        if (!caller.offer(call.permit(), call.detachedRenewal())) {
            return false;
        }
        held = call;
        return true;
    }

    /**
     * The client went away (disconnected, or an outer operator cancelled): {@code true} when no call holds a permit
     * yet, so that the exchange is cancelled; else the held call runs on, detached, and its response settles it as
     * usual.
     */
    boolean clientLeft() {
        if (caller.leave()) {
            return true;
        }
        left = true;
        Relay<?> relayed = body;
        if (relayed != null) {
            relayed.detach(); // a body not written yet is not cancelled when its connection closes: drain it
        }
        return false;
    }

    /** The relay of the held response's body, detached too once the client left. */
    void bodyRelayed(Relay<?> relay) {
        body = relay;
        if (left) {
            relay.detach();
        }
    }

    /** A duplicate: {@code stored} is written instead of whatever the handler's result would have been. */
    void replayWith(StoredResponse stored) {
        replay = stored;
    }

    /** The work (the handler, or its publisher) failed; the first failure counts. */
    void failed(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
    }

    /** Whether the work itself failed; an error seen while it did not fail came from delivering its answer. */
    boolean workFailed() {
        return failure != null;
    }

    /**
     * The work returned, but its answer could not be delivered ({@code error}, an encoder's): that is not the work's
     * outcome, so the call is settled as one whose answer was not kept (the key completes, the token stays used, the
     * lock is released), never released for a second run.
     */
    Mono<Void> undelivered(ServerHttpResponse response, Throwable error) {
        return settle(response, null, "its answer could not be written: " + error);
    }

    /** The held call whose response is still to be settled, or {@code null}. */
    @Nullable
    HeldCall pending() {
        return settled.get() ? null : held;
    }

    /** The staged replay, once: the first writer takes it. */
    @Nullable
    StoredResponse takeReplay() {
        StoredResponse stored = replay;
        return stored != null && replayed.compareAndSet(false, true) ? stored : null;
    }

    /**
     * Settles the held call by the response about to be committed.
     *
     * @param body the body as it will be sent, or {@code null} when it was not captured (see {@code whyNot})
     */
    Mono<Void> settle(ServerHttpResponse response, byte @Nullable [] body, String whyNot) {
        HeldCall call = held;
        if (call == null || !settled.compareAndSet(false, true)) {
            return Mono.empty();
        }
        Throwable cause = failure;
        return Mono.fromFuture(() -> call.settle(cause, new Sent(response, body, whyNot)), true)
                .publishOn(handoff) // the response goes on on its event loop, not on Redis's I/O thread
                .doFinally(signal -> call.end(cause));
    }

    /** The exchange ended with an error no handler answered, or a stream was cut off: release, restore, unlock. */
    void abandon(@Nullable Throwable cause) {
        HeldCall call = held;
        if (call != null && settled.compareAndSet(false, true)) {
            Throwable reason = cause != null ? cause : new CancellationException("The exchange was cancelled");
            failed(reason);
            call.settle(reason, null).whenComplete((done, ignored) -> call.end(reason));
        }
    }

    /** Writes the stored response's status and headers onto {@code response}; returns its body. */
    static byte[] applyReplay(ServerHttpResponse response, StoredResponse stored) {
        response.setStatusCode(HttpStatusCode.valueOf(stored.status()));
        HttpHeaders headers = response.getHeaders();
        headers.remove(HttpHeaders.CONTENT_TYPE); // set by the result handler for the body that is not sent
        stored.headers().forEach(header -> headers.remove(header.name()));
        stored.headers().forEach(header -> headers.add(header.name(), header.value()));
        headers.set(ReplayedHeaders.REPLAYED, "true");
        headers.setContentLength(stored.body().length);
        return stored.body();
    }

    /** Copies the readable bytes of {@code buffers} without consuming them. */
    static byte[] copy(List<DataBuffer> buffers) {
        byte[] bytes = new byte
                [buffers.stream().mapToInt(DataBuffer::readableByteCount).sum()];
        int offset = 0;
        for (DataBuffer buffer : buffers) {
            try (DataBuffer.ByteBufferIterator readable = buffer.readableByteBuffers()) {
                while (readable.hasNext()) {
                    java.nio.ByteBuffer part = readable.next();
                    int length = part.remaining();
                    part.get(bytes, offset, length);
                    offset += length;
                }
            }
        }
        return bytes;
    }

    /** The response as it will be sent. */
    private final class Sent implements HeldCall.SentResponse {

        private final ServerHttpResponse response;
        private final byte @Nullable [] body;
        private final String whyNot;

        Sent(ServerHttpResponse response, byte @Nullable [] body, String whyNot) {
            this.response = response;
            this.body = body;
            this.whyNot = whyNot;
        }

        @Override
        public int status() {
            HttpStatusCode status = response.getStatusCode();
            return status != null ? status.value() : 200;
        }

        @Override
        public List<StoredResponse.Header> headers() {
            return replayedHeaders.capture(response.getHeaders()::getOrEmpty);
        }

        @Override
        public @Nullable HeldBody body() {
            return body == null ? null : HeldBody.of(body);
        }

        @Override
        public String whyNotCaptured() {
            return whyNot;
        }
    }
}

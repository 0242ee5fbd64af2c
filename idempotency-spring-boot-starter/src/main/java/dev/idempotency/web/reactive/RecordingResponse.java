package dev.idempotency.web.reactive;

import dev.idempotency.internal.http.HeldBytes;
import dev.idempotency.internal.http.HeldCall;
import dev.idempotency.internal.http.StoredResponse;
import dev.idempotency.internal.reactive.AfterSettlement;
import dev.idempotency.internal.reactive.Relay;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The response an idempotent handler writes through. The decision is taken at the body's first signal, when the
 * handler has been admitted (a handler's {@code Mono} runs as the body is subscribed): a duplicate's body is swapped
 * for the stored one; a body is buffered up to {@code max-response-size} and sent once the call is settled (a
 * {@code REQUEST_ID} response stored, a lock released, a failed call's token restored); a stream
 * ({@link #writeAndFlushWith}) settles when it ends. Other responses pass untouched.
 * Status and headers can still change until the first buffer goes out, which is when WebFlux commits them.
 */
final class RecordingResponse extends ServerHttpResponseDecorator {

    private final ExchangeState state;

    RecordingResponse(ServerHttpResponse delegate, ExchangeState state) {
        super(delegate);
        this.state = state;
    }

    @Override
    public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
        Flux<DataBuffer> recorded = Flux.<DataBuffer>from(body).switchOnFirst((first, flux) -> record(flux));
        if (!state.protectedHandler()) {
            return super.writeWith(recorded);
        }
        // The server cancels the body when the client's connection closes; a protected handler's work (subscribed
        // with the body) must run on and settle all the same. The body is made as fast as the client reads it;
        // buffers nobody sends any more are released.
        return super.writeWith(Flux.deferContextual(context -> {
            Relay<DataBuffer> relay = Relay.run(
                    recorded,
                    context,
                    state::clientLeft,
                    DataBufferUtils::release,
                    DataBuffer::readableByteCount,
                    state.budget());
            state.bodyRelayed(relay);
            return relay;
        }));
    }

    @Override
    public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
        // A stream (REQUEST_ID refuses streaming handlers at startup): settled when it ends.
        // A stream cut off by its client ends there: the lock is released, a failed call's token restored.
        return super.writeAndFlushWith(body)
                .then(Mono.defer(() -> state.settle(getDelegate(), null, "streamed")))
                .doOnCancel(() -> state.abandon(null));
    }

    @Override
    public Mono<Void> setComplete() {
        StoredResponse replay = state.takeReplay();
        if (replay != null) {
            return super.writeWith(Mono.just(bufferFactory().wrap(ExchangeState.applyReplay(getDelegate(), replay))));
        }
        return state.settle(getDelegate(), new byte[0], "").then(super.setComplete());
    }

    private Flux<DataBuffer> record(Flux<DataBuffer> body) {
        StoredResponse replay = state.takeReplay();
        if (replay != null) {
            return body.doOnNext(DataBufferUtils::release)
                    .thenMany(Mono.fromSupplier(
                            () -> bufferFactory().wrap(ExchangeState.applyReplay(getDelegate(), replay))));
        }
        HeldCall call = state.pending();
        if (call == null) {
            return body;
        }
        // Every strategy's body waits for the settlement (stored, lock released, token restored): a client that sends
        // its next request the moment it has this response finds that done.
        return capture(body);
    }

    /**
     * Buffers the body until it ends or outgrows the limit (its own, or the {@link HeldBytes} bound of all calls in
     * flight); a whole body is settled before any of it is sent.
     */
    private Flux<DataBuffer> capture(Flux<DataBuffer> body) {
        long maxBytes = state.maxBytes();
        HeldBytes budget = state.budget();
        AtomicLong size = new AtomicLong();
        AtomicLong reserved = new AtomicLong();
        AtomicBoolean overflowed = new AtomicBoolean();
        // An error here is the encoder's or the writer's: the work's own errors were recorded where it emitted them.
        return body.bufferUntil(buffer -> {
                    int bytes = buffer.readableByteCount();
                    if (overflowed.get() || size.addAndGet(bytes) > maxBytes || !budget.tryReserve(bytes)) {
                        overflowed.set(true); // from here on every buffer goes out as it comes
                        return true;
                    }
                    reserved.addAndGet(bytes);
                    return false;
                })
                .concatMap(chunk -> {
                    if (!overflowed.get()) { // a chunk ends early only past a limit: this is the whole body
                        // Settled, the body is no longer held back: it is the server's to send, however slowly.
                        return AfterSettlement.send(settled(ExchangeState.copy(chunk), ""), () -> {
                            budget.release(reserved.getAndSet(0));
                            return chunk;
                        });
                    }
                    budget.release(reserved.getAndSet(0));
                    return Flux.fromIterable(chunk);
                })
                .concatWith(Flux.defer(() -> overflowed.get()
                        ? settle(
                                null,
                                "larger than idempotency.request-id.max-response-size, or past"
                                        + " idempotency.max-held-bytes")
                        : Flux.empty()))
                .switchIfEmpty(settle(new byte[0], ""))
                .doFinally(signal -> budget.release(reserved.getAndSet(0)));
    }

    private Flux<DataBuffer> settle(byte @Nullable [] body, String whyNot) {
        return settled(body, whyNot).thenMany(Flux.empty());
    }

    private Mono<Void> settled(byte @Nullable [] body, String whyNot) {
        return Mono.defer(() -> state.settle(getDelegate(), body, whyNot));
    }
}

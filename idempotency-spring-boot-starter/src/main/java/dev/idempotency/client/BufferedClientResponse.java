package dev.idempotency.client;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.client.ClientResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;

/**
 * The WebClient twin of {@link BufferedResponse}: a body read up to a limit to learn its problem type, and the response
 * to pass on, whose body is still whole. Reading stops past the limit whatever the {@code Content-Length} says (there
 * may be none): a larger body is no problem document, and the caller reads it all, the bytes already read first.
 *
 * @param body the whole body, or null when it is larger than the limit
 * @param response the response to pass on
 */
record BufferedClientResponse(byte @Nullable [] body, ClientResponse response) {

    /** Reads the body of {@code response} until it ends or passes {@code limit} bytes; fails if the connection does. */
    static Mono<BufferedClientResponse> read(ClientResponse response, int limit) {
        // One list of buffers up to the one that passes the limit (or all of them, at the end), then one per buffer.
        Flux<List<DataBuffer>> chunks = Flux.defer(() -> {
                    long[] read = {0};
                    return response.body(BodyExtractors.toDataBuffers())
                            .bufferUntil(buffer -> (read[0] += buffer.readableByteCount()) > limit);
                })
                .doOnDiscard(DataBuffer.class, DataBufferUtils::release);
        // The source is not cancelled once the first list is judged: a caller may still read the rest, through
        // the same subscription, which replays that first list.
        return chunks.switchOnFirst((first, all) -> judge(response, limit, first, all), false)
                .single();
    }

    private static Mono<BufferedClientResponse> judge(
            ClientResponse response, int limit, Signal<? extends List<DataBuffer>> first, Flux<List<DataBuffer>> all) {
        Throwable error = first.getThrowable();
        if (error != null) {
            return Mono.error(error);
        }
        List<DataBuffer> head = first.get();
        if (head == null) {
            return Mono.just(whole(response, new byte[0]));
        }
        int size = head.stream().mapToInt(DataBuffer::readableByteCount).sum();
        if (size > limit) {
            Flux<DataBuffer> body = all.concatMapIterable(list -> list, 1);
            return Mono.just(new BufferedClientResponse(null, withBody(response, body)));
        }
        byte[] bytes = new byte[size];
        int at = 0;
        for (DataBuffer buffer : head) {
            int length = buffer.readableByteCount();
            buffer.read(bytes, at, length);
            at += length;
            DataBufferUtils.release(buffer);
        }
        return Mono.just(whole(response, bytes));
    }

    private static BufferedClientResponse whole(ClientResponse response, byte[] bytes) {
        Flux<DataBuffer> body = bytes.length == 0
                ? Flux.empty()
                : Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(bytes)));
        return new BufferedClientResponse(bytes, withBody(response, body));
    }

    /** A transformer, not {@code body(Flux)}: that would drain the original body, which is read already. */
    private static ClientResponse withBody(ClientResponse response, Flux<DataBuffer> body) {
        return response.mutate().body(consumed -> body).build();
    }
}

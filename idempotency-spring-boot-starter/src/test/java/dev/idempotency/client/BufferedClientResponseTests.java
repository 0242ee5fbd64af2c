package dev.idempotency.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.ClientResponse;
import reactor.core.publisher.Flux;

/**
 * The WebClient filter's bounded read of a 409 body, on bodies made of reference-counted buffers: it stops asking for
 * more past the limit, hands the caller every byte, and leaves no buffer unreleased.
 */
class BufferedClientResponseTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int LIMIT = 16 * 1024;
    private static final int CHUNK = 1024;

    private final NettyDataBufferFactory buffers = new NettyDataBufferFactory(UnpooledByteBufAllocator.DEFAULT);
    private final List<NettyDataBuffer> sent = new CopyOnWriteArrayList<>();
    private final AtomicInteger emitted = new AtomicInteger();

    @Test
    void aBodyWithinTheLimitIsReadWholeAndPassedOn() {
        String json = "{\"type\":\"urn:idempotency:problem:lock-busy\",\"status\":409}";

        BufferedClientResponse read =
                BufferedClientResponse.read(response(chunks(json, 8)), LIMIT).block(TIMEOUT);

        assertThat(new String(read.body(), StandardCharsets.UTF_8)).isEqualTo(json);
        assertThat(read.response().bodyToMono(String.class).block(TIMEOUT)).isEqualTo(json);
        assertThat(read.response().statusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertAllReleased();
    }

    @Test
    void anEmptyBodyIsAnEmptyDocument() {
        BufferedClientResponse read =
                BufferedClientResponse.read(response(Flux.empty()), LIMIT).block(TIMEOUT);

        assertThat(read.body()).isEmpty();
        assertThat(read.response().bodyToMono(String.class).block(TIMEOUT)).isNull();
    }

    @Test
    void aLargerBodyIsReadOnlyPastTheLimitAndTheCallerGetsItAll() {
        String large = IntStream.range(0, 40)
                .mapToObj(i -> String.valueOf((char) ('a' + i % 26)).repeat(CHUNK))
                .reduce("", String::concat);

        BufferedClientResponse read = BufferedClientResponse.read(response(chunks(large, CHUNK)), LIMIT)
                .block(TIMEOUT);

        assertThat(read.body()).as("no problem document").isNull();
        assertThat(emitted.get())
                .as("chunks taken before the caller reads: up to the one past the limit")
                .isEqualTo(LIMIT / CHUNK + 1);
        assertThat(read.response().bodyToMono(String.class).block(TIMEOUT)).isEqualTo(large);
        assertThat(emitted.get()).isEqualTo(40);
        assertAllReleased();
    }

    @Test
    void aConnectionLostMidBodyFailsTheReadAndReleasesWhatCameBefore() {
        Flux<DataBuffer> broken = chunks("{\"type\":\"urn:idempotency:problem:request-", 8)
                .concatWith(Flux.error(new IOException("Connection reset")));

        assertThatThrownBy(() ->
                        BufferedClientResponse.read(response(broken), LIMIT).block(TIMEOUT))
                .hasRootCauseInstanceOf(IOException.class)
                .hasRootCauseMessage("Connection reset");
        assertAllReleased();
    }

    /** {@code text} in buffers of {@code size} bytes, each counted as it is emitted and kept to check its release. */
    private Flux<DataBuffer> chunks(String text, int size) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return Flux.range(0, (bytes.length + size - 1) / size).map(i -> {
            NettyDataBuffer buffer = buffers.allocateBuffer(size);
            buffer.write(bytes, i * size, Math.min(size, bytes.length - i * size));
            sent.add(buffer);
            emitted.incrementAndGet();
            return buffer;
        });
    }

    private static ClientResponse response(Flux<DataBuffer> body) {
        return ClientResponse.create(HttpStatus.CONFLICT)
                .header(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_PROBLEM_JSON_VALUE)
                .body(body)
                .build();
    }

    private void assertAllReleased() {
        assertThat(sent)
                .isNotEmpty()
                .allSatisfy(buffer -> assertThat(buffer.getNativeBuffer().refCnt())
                        .as("released")
                        .isZero());
    }
}

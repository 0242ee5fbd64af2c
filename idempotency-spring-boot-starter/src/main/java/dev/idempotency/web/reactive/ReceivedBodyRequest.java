package dev.idempotency.web.reactive;

import dev.idempotency.internal.http.ReceivedBody;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.OperationSpec;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import reactor.core.publisher.Flux;

/**
 * A request whose body, when the handler it was mapped to is a fingerprinted {@code REQUEST_ID} operation, is kept as
 * the client sent it ({@link ReceivedBody}) while the handler's decoder reads it; once read whole, it is an exchange
 * attribute. The handler is known by the time anything reads the body, which is after the mapping. Other requests'
 * bodies pass untouched.
 */
final class ReceivedBodyRequest extends ServerHttpRequestDecorator {

    private final Map<String, Object> attributes;
    private final OperationRegistry operations;

    ReceivedBodyRequest(ServerHttpRequest request, Map<String, Object> attributes, OperationRegistry operations) {
        super(request);
        this.attributes = attributes;
        this.operations = operations;
    }

    @Override
    public Flux<DataBuffer> getBody() {
        Flux<DataBuffer> body = super.getBody();
        if (!(attributes.get(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE) instanceof HandlerMethod handler)) {
            return body;
        }
        OperationSpec spec = operations.find(handler.getMethod(), handler.getBeanType());
        if (spec == null || !spec.comparesPayloads()) {
            return body;
        }
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        return body.doOnNext(buffer -> copy(buffer, received))
                .doOnComplete(() -> attributes.put(
                        ReceivedBody.ATTRIBUTE,
                        new ReceivedBody(received.toByteArray(), getHeaders().getContentType())));
    }

    /** Copies the readable bytes, leaving the buffer's read position for the decoder. */
    private static void copy(DataBuffer buffer, ByteArrayOutputStream received) {
        int length = buffer.readableByteCount();
        byte[] bytes = new byte[length];
        buffer.toByteBuffer(buffer.readPosition(), ByteBuffer.wrap(bytes), 0, length);
        received.write(bytes, 0, length);
    }
}

package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.HeldBody;
import dev.idempotency.internal.http.HeldCall;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.StoredResponse;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ResponseStatus;
import tools.jackson.databind.json.JsonMapper;

/**
 * The response of an asynchronous handler whose value arrived after the server's async timeout answered its caller:
 * nothing was sent, so what duplicates replay is the value rendered here, as Spring MVC would render it for a JSON
 * client: a {@code ResponseEntity}'s status and replayed headers, else the handler's {@code @ResponseStatus} or 200;
 * the body as JSON by the application's {@code JsonMapper} ({@code String}: UTF-8 text; {@code byte[]}: as it is).
 */
final class LateResponse implements HeldCall.SentResponse {

    private final int status;
    private final List<StoredResponse.Header> headers;
    private final byte[] body;

    private LateResponse(int status, List<StoredResponse.Header> headers, byte[] body) {
        this.status = status;
        this.headers = headers;
        this.body = body;
    }

    static LateResponse of(
            @Nullable Object value, Method handler, JsonMapper jsonMapper, ReplayedHeaders replayedHeaders) {
        int status = defaultStatus(handler);
        HttpHeaders headers = new HttpHeaders();
        Object body = value;
        if (value instanceof ResponseEntity<?> entity) {
            status = entity.getStatusCode().value();
            headers.putAll(entity.getHeaders());
            body = entity.getBody();
        }
        byte[] bytes;
        if (body == null) {
            bytes = new byte[0];
        } else if (body instanceof byte[] raw) {
            bytes = raw;
            headers.putIfAbsent(HttpHeaders.CONTENT_TYPE, List.of(MediaType.APPLICATION_OCTET_STREAM_VALUE));
        } else if (body instanceof String text) {
            bytes = text.getBytes(StandardCharsets.UTF_8);
            headers.putIfAbsent(HttpHeaders.CONTENT_TYPE, List.of("text/plain;charset=UTF-8"));
        } else {
            bytes = jsonMapper.writeValueAsBytes(body);
            headers.putIfAbsent(HttpHeaders.CONTENT_TYPE, List.of(MediaType.APPLICATION_JSON_VALUE));
        }
        return new LateResponse(status, replayedHeaders.capture(headers::getOrEmpty), bytes);
    }

    private static int defaultStatus(Method handler) {
        ResponseStatus annotated = AnnotatedElementUtils.findMergedAnnotation(handler, ResponseStatus.class);
        return annotated == null ? 200 : annotated.code().value();
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public List<StoredResponse.Header> headers() {
        return headers;
    }

    @Override
    public HeldBody body() {
        return HeldBody.of(body);
    }

    @Override
    public String whyNotCaptured() {
        return "";
    }
}

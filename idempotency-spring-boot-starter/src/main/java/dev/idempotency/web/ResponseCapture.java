package dev.idempotency.web;

import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns what a handler method returned into the {@link StoredResponse} a duplicate will see: a {@link ResponseEntity}'s
 * status, headers and body, or a plain value with the method's {@code @ResponseStatus}, serialized as Spring MVC would
 * (strings as text, byte arrays raw, anything else as JSON with the application's mapper).
 */
final class ResponseCapture {

    /** The headers a replay repeats, as the HTTP contract lists them. */
    static final List<String> REPLAYED_HEADERS =
            List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.LOCATION, HttpHeaders.ETAG);

    private ResponseCapture() {}

    static StoredResponse capture(
            @Nullable Object result, HandlerMetadata handler, HttpServletResponse response, JsonMapper jsonMapper) {
        int status;
        HttpHeaders entityHeaders;
        Object body;
        if (result instanceof ResponseEntity<?> entity) {
            status = entity.getStatusCode().value();
            entityHeaders = entity.getHeaders();
            body = entity.getBody();
        } else {
            status = handler.declaredStatus();
            entityHeaders = HttpHeaders.EMPTY;
            body = result;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : REPLAYED_HEADERS) {
            String value = entityHeaders.getFirst(name);
            if (value == null) {
                value = response.getHeader(name);
            }
            if (value != null) {
                headers.put(name, value);
            }
        }
        byte[] bytes = serialize(body, jsonMapper);
        if (bytes.length > 0) {
            headers.putIfAbsent(HttpHeaders.CONTENT_TYPE, defaultContentType(body, handler));
        }
        return new StoredResponse(status, headers, bytes);
    }

    private static byte[] serialize(@Nullable Object body, JsonMapper jsonMapper) {
        if (body == null) {
            return new byte[0];
        }
        if (body instanceof byte[] raw) {
            return raw;
        }
        if (body instanceof CharSequence text) {
            return text.toString().getBytes(StandardCharsets.UTF_8);
        }
        return jsonMapper.writeValueAsBytes(body);
    }

    private static String defaultContentType(Object body, HandlerMetadata handler) {
        if (handler.produces() != null) {
            return handler.produces();
        }
        if (body instanceof byte[]) {
            return MediaType.APPLICATION_OCTET_STREAM_VALUE;
        }
        if (body instanceof CharSequence) {
            return "text/plain;charset=UTF-8";
        }
        return MediaType.APPLICATION_JSON_VALUE;
    }
}

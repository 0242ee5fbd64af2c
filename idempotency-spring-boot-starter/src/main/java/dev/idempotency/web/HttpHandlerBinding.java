package dev.idempotency.web;

import dev.idempotency.aop.CallBinding;
import dev.idempotency.key.KeyDigests;
import dev.idempotency.requestid.ResultCodec;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.web.servlet.HandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/**
 * A call of the handler method of the current HTTP request: the key comes from a header, the operation is the HTTP
 * method and route pattern, the payload is the request body (as bound to the {@code @RequestBody} argument), the path
 * variables and the request parameters, and results are HTTP responses stored and replayed byte for byte.
 */
final class HttpHandlerBinding implements CallBinding {

    private final HandlerMetadata handler;
    private final MethodInvocation invocation;
    private final HttpServletRequest request;
    private final HttpServletResponse response;
    private final JsonMapper jsonMapper;

    HttpHandlerBinding(
            HandlerMetadata handler,
            MethodInvocation invocation,
            HttpServletRequest request,
            HttpServletResponse response,
            JsonMapper jsonMapper) {
        this.handler = handler;
        this.invocation = invocation;
        this.request = request;
        this.response = response;
        this.jsonMapper = jsonMapper;
    }

    @Override
    public @Nullable String header(String name) {
        return request.getHeader(name);
    }

    @Override
    public String operation() {
        Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        return request.getMethod() + " " + (pattern != null ? pattern : request.getRequestURI());
    }

    @Override
    public String fingerprint() {
        ByteArrayOutputStream payload = new ByteArrayOutputStream(256);
        Object pathVariables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        if (pathVariables instanceof Map<?, ?> variables && !variables.isEmpty()) {
            write(payload, new TreeMap<>(variables).toString());
        }
        write(payload, "|");
        for (Map.Entry<String, String[]> parameter : new TreeMap<>(request.getParameterMap()).entrySet()) {
            write(payload, parameter.getKey() + "=" + String.join(",", parameter.getValue()) + "&");
        }
        write(payload, "|");
        Object body = requestBody();
        if (body instanceof byte[] raw) {
            payload.writeBytes(raw);
        } else if (body instanceof CharSequence text) {
            write(payload, text.toString());
        } else if (body != null) {
            payload.writeBytes(jsonMapper.writeValueAsBytes(body));
        }
        return KeyDigests.shortDigest(payload.toByteArray());
    }

    @Override
    public ResultCodec<@Nullable Object> resultCodec() {
        return new HttpResponseCodec(handler, response, jsonMapper);
    }

    private @Nullable Object requestBody() {
        return handler.requestBodyIndex() < 0 ? null : invocation.getArguments()[handler.requestBodyIndex()];
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}

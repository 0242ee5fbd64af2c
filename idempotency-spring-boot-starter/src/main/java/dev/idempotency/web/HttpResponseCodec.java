package dev.idempotency.web;

import dev.idempotency.requestid.ResultCodec;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores a handler's HTTP response and replays it: a duplicate gets the stored status, headers and body bytes, plus
 * {@code Idempotent-Replayed: true}, written straight to the servlet response; the handler method never runs.
 * Responses with status 500 or above are not stored: the claim is released so a retry runs again.
 */
final class HttpResponseCodec implements ResultCodec<@Nullable Object> {

    /** Marks a replayed response, as in the IETF draft's examples and Stripe's API. */
    static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private final HandlerMetadata handler;
    private final HttpServletResponse response;
    private final JsonMapper jsonMapper;
    private @Nullable StoredResponse captured;

    HttpResponseCodec(HandlerMetadata handler, HttpServletResponse response, JsonMapper jsonMapper) {
        this.handler = handler;
        this.response = response;
        this.jsonMapper = jsonMapper;
    }

    @Override
    public boolean shouldStore(@Nullable Object result) {
        return capture(result).status() < 500;
    }

    @Override
    public byte[] encode(@Nullable Object result) {
        return capture(result).encode();
    }

    @Override
    public @Nullable Object decode(byte[] stored) {
        StoredResponse replay = StoredResponse.decode(stored);
        response.setStatus(replay.status());
        replay.headers().forEach(response::setHeader);
        response.setHeader(REPLAYED_HEADER, "true");
        response.setContentLength(replay.body().length);
        try {
            response.getOutputStream().write(replay.body());
            response.flushBuffer();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        // The response is committed: Spring MVC writes nothing more for a handler that returned null.
        return null;
    }

    private StoredResponse capture(@Nullable Object result) {
        if (captured == null) {
            captured = ResponseCapture.capture(result, handler, response, jsonMapper);
        }
        return captured;
    }
}

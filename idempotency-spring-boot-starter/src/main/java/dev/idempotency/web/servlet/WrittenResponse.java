package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.HeldBody;
import dev.idempotency.internal.http.HeldCall;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.StoredResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A Spring MVC response as it was written, as a store reads it: its status, the headers a replay repeats, and its body
 * as captured (by {@link CapturingResponse} on the way to the client, or by {@link BufferedResponse} for a late
 * answer).
 */
final class WrittenResponse implements HeldCall.SentResponse {

    private final HttpServletResponse response;
    private final ReplayedHeaders replayedHeaders;
    private final Supplier<@Nullable HeldBody> body;
    private final Supplier<String> whyNotCaptured;

    /**
     * @param body the body as captured, or {@code null} when it was not (see {@code whyNotCaptured})
     */
    WrittenResponse(
            HttpServletResponse response,
            ReplayedHeaders replayedHeaders,
            Supplier<@Nullable HeldBody> body,
            Supplier<String> whyNotCaptured) {
        this.response = response;
        this.replayedHeaders = replayedHeaders;
        this.body = body;
        this.whyNotCaptured = whyNotCaptured;
    }

    @Override
    public int status() {
        return response.getStatus();
    }

    @Override
    public List<StoredResponse.Header> headers() {
        return replayedHeaders.capture(response::getHeaders);
    }

    @Override
    public @Nullable HeldBody body() {
        return body.get();
    }

    @Override
    public String whyNotCaptured() {
        return whyNotCaptured.get();
    }
}

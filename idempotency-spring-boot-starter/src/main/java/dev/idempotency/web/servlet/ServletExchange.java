package dev.idempotency.web.servlet;

import dev.idempotency.internal.Futures;
import dev.idempotency.internal.http.HeldCall;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.StoredResponse;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletRequest;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP exchange through the response filter. When an idempotent handler runs, its permit is held here and settled
 * once the response is complete: at the end of the request, or when asynchronous processing completes. So the claim,
 * token or lock spans async handlers too, and what is stored is the response as sent.
 */
final class ServletExchange implements AsyncListener {

    static final String ATTRIBUTE = ServletExchange.class.getName();

    private final CapturingResponse response;
    private final ReplayedHeaders replayedHeaders;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile @Nullable HeldCall held;
    private volatile @Nullable Throwable failure;

    ServletExchange(CapturingResponse response, ReplayedHeaders replayedHeaders) {
        this.response = response;
        this.replayedHeaders = replayedHeaders;
    }

    static @Nullable ServletExchange of(ServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof ServletExchange exchange ? exchange : null;
    }

    CapturingResponse response() {
        return response;
    }

    /**
     * The handler admitted to run: keep its permit until the response is complete, and hold the response back until
     * then, up to {@code maxBytes} ({@code -1}: let it through as it is written).
     */
    void hold(HeldCall call, long maxBytes) {
        if (maxBytes >= 0) {
            response.arm(maxBytes);
        }
        held = call;
    }

    /** The handler (or async processing) failed; the first failure counts. */
    void failed(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
    }

    /**
     * Settles the held call, once, by the response as sent.
     *
     * @param answered whether a response was written; {@code false} when an exception left the filter chain
     */
    void settle(boolean answered) throws IOException {
        HeldCall current = held;
        if (current == null || !settled.compareAndSet(false, true)) {
            return;
        }
        Throwable cause = failure;
        try {
            Futures.join(current.settle(cause, answered ? new Sent() : null));
        } finally {
            current.end(cause);
            response.release(); // stored (or released) first: only now does the client get the response
        }
    }

    /** The response as written through the capturing wrapper. */
    private final class Sent implements HeldCall.SentResponse {

        @Override
        public int status() {
            return response.getStatus();
        }

        @Override
        public List<StoredResponse.Header> headers() {
            return replayedHeaders.capture(response::getHeaders);
        }

        @Override
        public byte @Nullable [] body() {
            return response.copied();
        }

        @Override
        public String whyNotCaptured() {
            return response.overflowed()
                    ? "larger than idempotency.request-id.max-response-size"
                    : "ended by sendError";
        }
    }

    @Override
    public void onComplete(AsyncEvent event) throws IOException {
        settle(true);
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        failed(new TimeoutException("Asynchronous request processing timed out"));
    }

    @Override
    public void onError(AsyncEvent event) {
        Throwable cause = event.getThrowable();
        failed(cause != null ? cause : new IllegalStateException("Asynchronous request processing failed"));
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        event.getAsyncContext().addListener(this); // a new async cycle drops the listeners of the last one
    }
}

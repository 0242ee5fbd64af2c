package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.HeldCall;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.spi.Futures;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP exchange through the response filter. When an idempotent handler runs, its permit is held here and settled
 * once the response is complete: at the end of the request, or when asynchronous processing completes. So the claim,
 * token or lock spans async handlers too, and what is stored is the response as sent. When the request ends while
 * asynchronous work still runs (the server's async timeout, a client gone), the call is detached from it: the work's
 * own end settles it ({@link #workEnded}), with its value rendered by {@link LateResponse}; work whose end cannot be
 * observed ({@code DeferredResult}, {@code WebAsyncTask}) keeps its claim until the detached-renewal bound.
 */
final class ServletExchange implements AsyncListener {

    static final String ATTRIBUTE = ServletExchange.class.getName();

    private final HttpServletRequest request;
    private final CapturingResponse response;
    private final ReplayedHeaders replayedHeaders;
    private final LateRender lateRender;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile @Nullable HeldCall held;
    private volatile @Nullable Throwable failure;
    private volatile boolean workReturned;
    private volatile boolean observed;
    private volatile @Nullable Throwable deliveryFailure;
    private boolean detached; // guarded by this
    private volatile boolean awaitsErrorPage;
    private long maxBytes = -1;
    private volatile boolean streaming;
    private @Nullable WorkEnd workEnd; // guarded by this
    private @Nullable FrozenRequest frozen; // guarded by this: the request as it was when the call detached

    ServletExchange(
            HttpServletRequest request,
            CapturingResponse response,
            ReplayedHeaders replayedHeaders,
            LateRender lateRender) {
        this.request = request;
        this.response = response;
        this.replayedHeaders = replayedHeaders;
        this.lateRender = lateRender;
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
        this.maxBytes = maxBytes;
        this.streaming = maxBytes < 0;
        held = call;
    }

    /**
     * Something failed: the work itself, or, once the work returned ({@link #workReturned}), writing its answer
     * (serialization, a representation the client does not accept, a client gone mid-transfer). The first of each
     * counts.
     */
    void failed(Throwable cause) {
        if (workReturned) {
            if (deliveryFailure == null) {
                deliveryFailure = cause;
            }
        } else if (failure == null) {
            failure = cause;
        }
    }

    /** The work goes on after the handler returned, and its end will be told ({@link #workEnded}), a stream's too. */
    void workObserved() {
        observed = true;
    }

    /** The work returned a value: what fails from now on is the delivery of its answer, not the work. */
    void workReturned() {
        workReturned = true;
    }

    /**
     * Settles the held call, once, by the response as sent.
     *
     * @param answered whether a response was written; {@code false} when an exception left the filter chain
     */
    void settle(boolean answered) throws IOException {
        HeldCall current = held;
        if (current == null || isDetached() || settled.get()) {
            return;
        }
        Throwable cause = failure;
        if (answered && response.errorSent() && current.stores(cause, response.getStatus())) {
            // The container renders the body in its error dispatch: the call is settled by that response.
            awaitsErrorPage = true;
            return;
        }
        if (!settled.compareAndSet(false, true)) {
            return;
        }
        try {
            Futures.join(current.settle(cause, answered ? sent(response) : null, deliveryFailure));
        } finally {
            current.end(cause);
            response.release(); // stored (or released) first: only now does the client get the response
        }
    }

    /**
     * The request ends, or ended, while the held work may still run: from now on the work's own end settles the call.
     * {@code true} when a held call is detached.
     */
    synchronized boolean detachFromCaller() {
        HeldCall current = held;
        if (current == null || settled.get() || (streaming && !observed)) {
            // an emitter the starter could not connect (EmitterRelay) is the application's: cut off, it ends there
            return false;
        }
        if (!detached) {
            detached = true;
            frozen = FrozenRequest.of(request); // still in use here: the container recycles it once it ends
            if (workEnd != null) {
                settleLate(current, workEnd);
            } else {
                current.detach();
            }
        }
        return true;
    }

    synchronized boolean isDetached() {
        return detached;
    }

    /**
     * The asynchronous work ended by itself; this settles the call only if it was detached from its request, with its
     * answer rendered as Spring MVC would have rendered it for the caller ({@link LateRender}).
     */
    synchronized void workEnded(@Nullable Object value, @Nullable Throwable failure) {
        HeldCall current = held;
        if (current == null || workEnd != null) {
            return;
        }
        workEnd = new WorkEnd(value, failure);
        if (failure == null) {
            workReturned = true; // an error rendering its value in the async dispatch is the delivery's
        }
        if (detached) {
            settleLate(current, workEnd);
        }
    }

    private void settleLate(HeldCall current, WorkEnd end) {
        if (!settled.compareAndSet(false, true)) {
            return;
        }
        Throwable cause = end.failure();
        FrozenRequest copy = frozen;
        HeldCall.@Nullable SentResponse rendered = copy == null ? null : lateRender.render(copy, end.value(), cause);
        Throwable notRendered = cause == null && rendered == null
                ? new IllegalStateException("the late answer could not be rendered")
                : null;
        current.settle(cause, rendered, notRendered).whenComplete((done, ignored) -> current.end(cause));
    }

    /** The raw response under the capturing wrapper, for an answer that must not be held or stored. */
    HttpServletResponse rawResponse() {
        return (HttpServletResponse) response.getResponse();
    }

    private record WorkEnd(@Nullable Object value, @Nullable Throwable failure) {}

    /** Whether the call waits for the container's error dispatch to render the body of its {@code sendError}. */
    boolean awaitsErrorPage() {
        return awaitsErrorPage && !settled.get();
    }

    /** A capture of the error dispatch's response, held back like the handler's own. */
    CapturingResponse errorPageCapture(HttpServletResponse errorResponse) {
        CapturingResponse capture = new CapturingResponse(errorResponse, response.budget());
        if (maxBytes >= 0) {
            capture.arm(maxBytes);
        }
        return capture;
    }

    /**
     * Settles the call by the error page rendered into {@code capture} ({@code null}: no error dispatch came, or it
     * failed), then sends it.
     */
    void settleByErrorPage(@Nullable CapturingResponse capture) throws IOException {
        HeldCall current = held;
        if (current == null || !awaitsErrorPage || !settled.compareAndSet(false, true)) {
            return;
        }
        Throwable cause = failure;
        try {
            Futures.join(current.settle(cause, sent(capture != null ? capture : response), deliveryFailure));
        } finally {
            current.end(cause);
            if (capture != null) {
                capture.release();
            }
        }
    }

    /** The response as written through a capturing wrapper. */
    private WrittenResponse sent(CapturingResponse response) {
        return new WrittenResponse(
                response,
                replayedHeaders,
                response::copied,
                () -> response.overflowed()
                        ? "larger than idempotency.request-id.max-response-size, or past idempotency.max-held-bytes"
                        : "ended by sendError");
    }

    @Override
    public void onComplete(AsyncEvent event) throws IOException {
        settle(true);
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        if (!detachFromCaller()) { // the work runs on: its end, not the timeout, settles the call
            failed(new IllegalStateException("Asynchronous request processing timed out"));
        }
    }

    @Override
    public void onError(AsyncEvent event) {
        if (!detachFromCaller()) { // the connection failed (the client went away): the work runs on
            Throwable cause = event.getThrowable();
            failed(cause != null ? cause : new IllegalStateException("Asynchronous request processing failed"));
        }
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        event.getAsyncContext().addListener(this); // a new async cycle drops the listeners of the last one
    }
}

package dev.idempotency.web.servlet;

import dev.idempotency.Strategy;
import dev.idempotency.internal.Futures;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.StoredResponse;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import dev.idempotency.spi.Permit;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletRequest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP exchange through the response filter. When an idempotent handler runs, its permit is held here and settled
 * once the response is complete: at the end of the request, or when asynchronous processing completes. So the claim,
 * token or lock spans async handlers too, and what is stored is the response as sent.
 */
final class ServletExchange implements AsyncListener {

    static final String ATTRIBUTE = ServletExchange.class.getName();

    private static final Logger log = LoggerFactory.getLogger(ServletExchange.class);

    private final CapturingResponse response;
    private final ReplayedHeaders replayedHeaders;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile @Nullable Held held;
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

    /** The handler admitted to run: keep its permit until the response is complete. */
    void hold(Permit permit, Strategy strategy, String name, InvocationObserver.Scope observation, long maxBytes) {
        if (strategy == Strategy.REQUEST_ID) {
            response.arm(maxBytes);
        }
        held = new Held(permit, strategy, name, observation);
    }

    /** The handler (or async processing) failed; the first failure counts. */
    void failed(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
    }

    /** Settles the held permit, once: store or release the claim, keep or restore the token, release the lock. */
    void settle() {
        Held current = held;
        if (current == null || !settled.compareAndSet(false, true)) {
            return;
        }
        Throwable cause = failure;
        CompletableFuture<Void> settling = cause != null
                ? current.permit.fail()
                : current.strategy == Strategy.REQUEST_ID ? completeOrRelease(current) : current.permit.succeed(null);
        Futures.join(settling);
        current.observation.end(Outcome.EXECUTED, cause);
    }

    private CompletableFuture<Void> completeOrRelease(Held current) {
        int status = response.getStatus();
        if (status >= 500) {
            return current.permit.fail();
        }
        byte[] body = response.copied();
        if (body == null) {
            log.warn(
                    "Response of {} not stored ({}); a retry runs the handler again",
                    current.name,
                    response.overflowed()
                            ? "larger than idempotency.request-id.max-response-size"
                            : "ended by sendError");
            return current.permit.fail();
        }
        StoredResponse stored = new StoredResponse(status, replayedHeaders.capture(response::getHeaders), body);
        return current.permit.succeed(stored.encode());
    }

    @Override
    public void onComplete(AsyncEvent event) {
        settle();
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

    private record Held(Permit permit, Strategy strategy, String name, InvocationObserver.Scope observation) {}
}

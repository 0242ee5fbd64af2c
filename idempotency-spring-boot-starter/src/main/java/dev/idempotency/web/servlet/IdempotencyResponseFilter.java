package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.HeldBytes;
import dev.idempotency.internal.http.ReplayedHeaders;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.context.request.async.AsyncRequestTimeoutException;
import org.springframework.web.context.request.async.WebAsyncUtils;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Gives every request an {@link ServletExchange}: the response is wrapped so that an idempotent handler's response can
 * be copied as it is written, and the handler's permit is settled when the response is complete, after exception
 * handlers and message converters ran (or when asynchronous processing completes).
 */
final class IdempotencyResponseFilter extends OncePerRequestFilter {

    private final ReplayedHeaders replayedHeaders;
    private final JsonMapper jsonMapper;
    private final HeldBytes budget;
    private final LateRender lateRender;

    IdempotencyResponseFilter(
            ReplayedHeaders replayedHeaders, JsonMapper jsonMapper, HeldBytes budget, LateRender lateRender) {
        this.replayedHeaders = replayedHeaders;
        this.jsonMapper = jsonMapper;
        this.budget = budget;
        this.lateRender = lateRender;
    }

    /**
     * Runs in the dispatch that writes an asynchronous result too, so that the permit is settled before that response
     * completes: a client that retries the moment it has the response finds the record stored.
     */
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    /** Runs in the container's error dispatch too, which renders the body of a {@code sendError}. */
    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ServletExchange exchange = ServletExchange.of(request);
        if (exchange != null && request.getDispatcherType() == DispatcherType.ERROR) {
            errorPage(request, response, chain, exchange);
            return;
        }
        if (exchange != null && isAsyncDispatch(request) && endedWithoutTheWork(request, exchange)) {
            return;
        }
        HttpServletResponse passed = response;
        if (exchange == null || !isAsyncDispatch(request)) {
            exchange =
                    new ServletExchange(request, new CapturingResponse(response, budget), replayedHeaders, lateRender);
            request.setAttribute(ServletExchange.ATTRIBUTE, exchange);
            passed = exchange.response();
        }
        try {
            chain.doFilter(request, passed);
        } catch (IOException | ServletException | RuntimeException | Error ex) {
            exchange.failed(ex);
            exchange.settle(false);
            throw ex;
        }
        if (request.isAsyncStarted()) {
            // Settled by the dispatch that writes the result; the listener covers an async cycle that never dispatches.
            request.getAsyncContext().addListener(exchange);
        } else {
            exchange.settle(true);
        }
    }

    /**
     * The error page of a held call that ended by {@code sendError} ({@code ResponseStatusException},
     * {@code @ResponseStatus}, {@code ErrorResponse} without problem details): captured and held back like any
     * response, so that it is stored and replayed as sent when {@code release-on} keeps it.
     */
    private static void errorPage(
            HttpServletRequest request, HttpServletResponse response, FilterChain chain, ServletExchange exchange)
            throws ServletException, IOException {
        if (!exchange.awaitsErrorPage()) {
            chain.doFilter(request, response);
            return;
        }
        CapturingResponse capture = exchange.errorPageCapture(response);
        try {
            chain.doFilter(request, capture);
        } catch (IOException | ServletException | RuntimeException | Error ex) {
            capture.giveBack(); // what the failed error page held goes back to idempotency.max-held-bytes
            exchange.settleByErrorPage(null);
            throw ex;
        }
        exchange.settleByErrorPage(capture);
    }

    /**
     * The dispatch after the server's async timeout (or a connection error) while the held work still runs: the caller
     * gets {@code 409 request-in-progress} (a timeout) or nothing more (a broken connection), and the work's own end
     * settles the call. Spring MVC's timeout answer, 503, would tell the caller that nothing ran.
     */
    private boolean endedWithoutTheWork(HttpServletRequest request, ServletExchange exchange) throws IOException {
        boolean timedOut =
                WebAsyncUtils.getAsyncManager(request).getConcurrentResult() instanceof AsyncRequestTimeoutException;
        if (timedOut) {
            exchange.detachFromCaller();
        }
        if (!exchange.isDetached()) {
            return false;
        }
        if (timedOut) {
            TimedOutAnswer.write(exchange.rawResponse(), jsonMapper);
        }
        return true;
    }
}

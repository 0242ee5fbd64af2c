package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.ReplayedHeaders;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request an {@link ServletExchange}: the response is wrapped so that an idempotent handler's response can
 * be copied as it is written, and the handler's permit is settled when the response is complete, after exception
 * handlers and message converters ran (or when asynchronous processing completes).
 */
final class IdempotencyResponseFilter extends OncePerRequestFilter {

    private final ReplayedHeaders replayedHeaders;

    IdempotencyResponseFilter(ReplayedHeaders replayedHeaders) {
        this.replayedHeaders = replayedHeaders;
    }

    /**
     * Runs in the dispatch that writes an asynchronous result too, so that the permit is settled before that response
     * completes: a client that retries the moment it has the response finds the record stored.
     */
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ServletExchange exchange = ServletExchange.of(request);
        HttpServletResponse passed = response;
        if (exchange == null || !isAsyncDispatch(request)) {
            exchange = new ServletExchange(new CapturingResponse(response), replayedHeaders);
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
}

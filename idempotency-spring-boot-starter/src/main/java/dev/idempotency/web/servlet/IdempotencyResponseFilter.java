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

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ServletExchange exchange = new ServletExchange(new CapturingResponse(response), replayedHeaders);
        request.setAttribute(ServletExchange.ATTRIBUTE, exchange);
        try {
            chain.doFilter(request, exchange.response());
        } catch (IOException | ServletException | RuntimeException | Error ex) {
            exchange.failed(ex);
            exchange.settle();
            throw ex;
        }
        if (request.isAsyncStarted()) {
            request.getAsyncContext().addListener(exchange);
        } else {
            exchange.settle();
        }
    }
}

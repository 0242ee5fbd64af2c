package dev.idempotency.web.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Notes on the exchange that the handler threw, before any {@code @ExceptionHandler} turns the exception into a
 * response, in the request's own dispatch and in the dispatch after asynchronous processing alike. It resolves
 * nothing itself.
 */
final class ExceptionRecorder implements HandlerExceptionResolver, Ordered {

    @Override
    public @Nullable ModelAndView resolveException(
            HttpServletRequest request, HttpServletResponse response, @Nullable Object handler, Exception ex) {
        ServletExchange exchange = ServletExchange.of(request);
        if (exchange != null) {
            exchange.failed(ex);
        }
        return null;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}

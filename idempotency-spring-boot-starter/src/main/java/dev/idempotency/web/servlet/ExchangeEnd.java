package dev.idempotency.web.servlet;

import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * At the end of every request: a held call that ended by {@code sendError} and still waits for the container's error
 * page (an application without one) is settled now, without a body, so that its claim never waits for its lease; and
 * whatever its response still holds of the {@link dev.idempotency.internal.http.HeldBytes} budget is given back.
 */
final class ExchangeEnd implements ServletRequestListener {

    @Override
    public void requestDestroyed(ServletRequestEvent event) {
        ServletExchange exchange = ServletExchange.of(event.getServletRequest());
        if (exchange == null) {
            return;
        }
        try {
            if (exchange.awaitsErrorPage()) {
                exchange.settleByErrorPage(null);
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        } finally {
            exchange.response().giveBack();
        }
    }
}

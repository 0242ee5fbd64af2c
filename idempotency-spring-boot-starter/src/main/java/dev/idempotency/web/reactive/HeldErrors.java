package dev.idempotency.web.reactive;

import java.util.List;
import java.util.function.Supplier;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Renders an error that escapes a held call's handler ({@code ResponseStatusException}, {@code @ResponseStatus},
 * {@code ErrorResponse}: anything no {@code @ExceptionHandler} answered) with the application's own
 * {@link WebExceptionHandler}s, in their order, but inside the {@link IdempotencyWebFilter}: WebFlux would render it
 * outside every filter, where the response is neither recorded nor settles the call. So the error response is
 * classified by {@code release-on} and stored or released exactly as on Spring MVC.
 */
final class HeldErrors {

    private final Supplier<List<WebExceptionHandler>> handlers;

    HeldErrors(Supplier<List<WebExceptionHandler>> handlers) {
        this.handlers = handlers;
    }

    /** The error rendered onto {@code exchange}'s recording response, or the error itself when nothing renders it. */
    Mono<Void> render(ServerWebExchange exchange, Throwable error) {
        Mono<Void> rendered = Mono.error(error);
        for (WebExceptionHandler handler : handlers.get()) {
            rendered = rendered.onErrorResume(failure -> handler.handle(exchange, failure));
        }
        return rendered;
    }
}

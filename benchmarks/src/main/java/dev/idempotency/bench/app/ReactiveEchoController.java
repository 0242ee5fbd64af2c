package dev.idempotency.bench.app;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The endpoints of {@link EchoController} for the WebFlux variant of the app (on Netty): the same body, the same
 * {@code @Idempotent} settings, but every handler returns a {@link Mono}, so the starter's non-blocking path is the one
 * measured (a plain return value would run on its blocking executor instead). No hand-written endpoint.
 */
@RestController
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
public class ReactiveEchoController {

    /** No protection: the reference of the WebFlux scenarios. */
    @PostMapping(EchoEndpoints.BASELINE)
    public Mono<Echo> baseline(@RequestBody Echo body) {
        return Mono.just(body);
    }

    /** {@code REQUEST_ID}, as {@link EchoController#requestId}. */
    @PostMapping(EchoEndpoints.REQUEST_ID)
    @Idempotent
    public Mono<Echo> requestId(@RequestBody Echo body) {
        return Mono.just(body);
    }

    /** {@code TOKEN}, as {@link EchoController#token}. */
    @PostMapping(EchoEndpoints.TOKEN)
    @Idempotent(strategy = Strategy.TOKEN)
    public Mono<Echo> token(@RequestBody Echo body) {
        return Mono.just(body);
    }

    /** {@code LOCK}, as {@link EchoController#lock}. */
    @PostMapping(EchoEndpoints.LOCK)
    @Idempotent(strategy = Strategy.LOCK, key = EchoEndpoints.LOCK_KEY)
    public Mono<Echo> lock(@RequestBody Echo body) {
        return Mono.just(body);
    }
}

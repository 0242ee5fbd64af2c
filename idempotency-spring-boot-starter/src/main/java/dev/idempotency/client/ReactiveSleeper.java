package dev.idempotency.client;

import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * How the WebClient filter waits between two attempts, without blocking. The auto-configuration takes a bean of this
 * type when there is one, which only code in this package can declare: tests use it to record the waits asked for
 * instead of waiting them out.
 */
@FunctionalInterface
interface ReactiveSleeper {

    /** Completes after {@code wait} on Reactor's parallel timer. */
    ReactiveSleeper TIMER = wait -> Mono.delay(wait).then();

    Mono<Void> sleep(Duration wait);
}

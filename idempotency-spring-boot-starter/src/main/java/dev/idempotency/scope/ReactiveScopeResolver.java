package dev.idempotency.scope;

import reactor.core.publisher.Mono;

/**
 * The reactive counterpart of {@link ScopeResolver}, for WebFlux handlers and {@code Mono}/{@code Flux} bean methods:
 * resolved from the subscriber's context (Spring Security's {@code ReactiveSecurityContextHolder}, or the exchange
 * that the idempotency WebFilter puts there), never from a thread. The value is hashed into the Redis key, never used
 * raw. The auto-configured resolver follows {@code idempotency.scope}; define a bean of this type for anything else.
 */
@FunctionalInterface
public interface ReactiveScopeResolver {

    /**
     * The scope of the current call, e.g. {@code user:alice}; empty when the caller is anonymous, which then follows
     * {@code idempotency.anonymous}.
     */
    Mono<String> currentScope();

    /** One scope for everyone ({@code idempotency.scope: none}). */
    static ReactiveScopeResolver shared() {
        Mono<String> shared = Mono.just("");
        return () -> shared;
    }
}

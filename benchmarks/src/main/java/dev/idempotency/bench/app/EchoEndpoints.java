package dev.idempotency.bench.app;

/**
 * What the Spring MVC and the WebFlux echo controllers share: the paths the harness drives and the lock key, so that
 * both stacks serve the same endpoints under the same protection.
 */
final class EchoEndpoints {

    /** No protection. */
    static final String BASELINE = "/baseline";

    /** A hand-written {@code SET NX} (Spring MVC only). */
    static final String HANDWRITTEN = "/handwritten";

    /** {@code REQUEST_ID}, key from the {@code Idempotency-Key} header. */
    static final String REQUEST_ID = "/request-id";

    /** {@code TOKEN}, from the {@code Idempotency-Token} header. */
    static final String TOKEN = "/token";

    /** {@code LOCK}, keyed by {@link #LOCK_KEY}. */
    static final String LOCK = "/lock";

    /** The lock key of {@link #LOCK}: the body's id, distinct per request. */
    static final String LOCK_KEY = "#body.id";

    private EchoEndpoints() {}
}

package dev.idempotency.internal.operation;

import dev.idempotency.MissingIdempotencyKeyException;
import dev.idempotency.Strategy;
import dev.idempotency.key.ClientKeys;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.spi.IdempotencyStrategy;
import dev.idempotency.spi.ProtectedCall;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One call of an {@code @Idempotent} method as the flows see it: its settings, the invocation and what they share. */
public final class ProtectedInvocation {

    private static final Logger log = LoggerFactory.getLogger(ProtectedInvocation.class);

    private final OperationSpec spec;
    private final MethodInvocation invocation;
    private final Protection protection;

    public ProtectedInvocation(OperationSpec spec, MethodInvocation invocation, Protection protection) {
        this.spec = spec;
        this.invocation = invocation;
        this.protection = protection;
    }

    public OperationSpec spec() {
        return spec;
    }

    public MethodInvocation invocation() {
        return invocation;
    }

    public Protection protection() {
        return protection;
    }

    public IdempotencyStrategy strategy() {
        return protection.strategy(spec.strategy());
    }

    public InvocationObserver.Scope observe() {
        return protection.observer().start(spec.name(), spec.strategy());
    }

    /** Runs the method itself. */
    public @Nullable Object proceed() throws Throwable {
        return invocation.proceed();
    }

    /**
     * The call as the strategy sees it.
     *
     * @param scope whose keys these are, from {@link Protection#currentScope()} or a reactive lookup
     * @param header reads a request header (always {@code null} outside HTTP)
     * @param operation what keys are scoped by: the route, or {@link OperationSpec#id()}
     * @param fingerprint the payload's digest, computed only when the strategy compares payloads
     * @throws MissingIdempotencyKeyException when there is no key
     * @throws dev.idempotency.InvalidIdempotencyKeyException when a client's key is malformed
     */
    public ProtectedCall call(
            String scope,
            java.util.function.Function<String, @Nullable String> header,
            String operation,
            Supplier<String> fingerprint) {
        boolean comparesPayloads = spec.strategy() == Strategy.REQUEST_ID && spec.fingerprint();
        return new ProtectedCall(
                scope,
                operation,
                key(header),
                comparesPayloads ? fingerprint.get() : null,
                spec.ttl(),
                spec.lease(),
                spec.maxWait());
    }

    private String key(java.util.function.Function<String, @Nullable String> header) {
        KeyExpression expression = spec.key();
        if (expression != null) {
            // A key computed from the arguments is hashed as it is: any characters, any length.
            String key = expression.evaluate(spec.method(), invocation.getArguments(), invocation.getThis());
            if (key == null) {
                log.debug("Key of {} is null ({})", spec.name(), spec.keySource()); // server detail stays in the log
                throw new MissingIdempotencyKeyException("The request has no idempotency key");
            }
            return key;
        }
        String raw = header.apply(spec.header());
        if (spec.strategy() == Strategy.TOKEN) {
            return raw == null ? "" : raw; // the token strategy reports a missing or malformed token
        }
        if (raw == null) {
            throw new MissingIdempotencyKeyException("The request has no " + spec.header() + " header");
        }
        return ClientKeys.parse(raw);
    }
}

package dev.idempotency.internal.operation;

import dev.idempotency.MissingIdempotencyKeyException;
import dev.idempotency.Strategy;
import dev.idempotency.internal.kotlin.SuspendingCalls;
import dev.idempotency.key.ClientKeys;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.spi.IdempotencyStrategy;
import dev.idempotency.spi.ProtectedCall;
import java.util.Map;
import java.util.function.Function;
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

    /** Runs the method itself; a {@code suspend fun} starts a coroutine that keeps the context bound now. */
    public @Nullable Object proceed() throws Throwable {
        if (spec.suspending()) {
            SuspendingCalls.bindCurrentContext(invocation);
        }
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
            String scope, Function<String, @Nullable String> header, String operation, Supplier<String> fingerprint) {
        return call(scope, spec.header(), header, operation, fingerprint, Map.of());
    }

    /**
     * The call as the strategy sees it, for a layer with a key header and SpEL variables of its own (Kafka).
     *
     * @param keyHeader the header that carries a client's key or token when the method names no SpEL key
     * @param variables what a SpEL key sees besides the arguments, winning over parameters of the same name
     * @see #call(String, Function, String, Supplier)
     */
    public ProtectedCall call(
            String scope,
            String keyHeader,
            Function<String, @Nullable String> header,
            String operation,
            Supplier<String> fingerprint,
            Map<String, ?> variables) {
        return new ProtectedCall(
                scope,
                operation,
                key(keyHeader, header, variables),
                spec.comparesPayloads() ? fingerprint.get() : null,
                spec.ttl(),
                spec.lease(),
                spec.maxWait());
    }

    private String key(String keyHeader, Function<String, @Nullable String> header, Map<String, ?> variables) {
        KeyExpression expression = spec.key();
        if (expression != null) {
            // A key computed from the arguments is hashed as it is: any characters, any length.
            String key = expression.evaluate(spec.method(), invocation.getArguments(), invocation.getThis(), variables);
            if (key == null) {
                log.debug("Key of {} is null ({})", spec.name(), spec.keySource()); // server detail stays in the log
                throw missingKey("The request has no idempotency key");
            }
            return key;
        }
        String raw = header.apply(keyHeader);
        if (spec.strategy() == Strategy.TOKEN) {
            return raw == null ? "" : raw; // the token strategy reports a missing or malformed token
        }
        if (raw == null) {
            throw missingKey("The request has no " + keyHeader + " header");
        }
        return ClientKeys.parse(raw);
    }

    /** With {@code missing-key: proceed} the flows run the call unprotected ({@link KeylessCall}); else it is refused. */
    private MissingIdempotencyKeyException missingKey(String message) {
        return spec.proceedWithoutKey() ? new KeylessCall(message) : new MissingIdempotencyKeyException(message);
    }
}

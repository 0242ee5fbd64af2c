package dev.idempotency.aop;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.MissingIdempotencyKeyException;
import dev.idempotency.key.ClientKeys;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.support.CheckedSupplier;
import dev.idempotency.token.TokenStore;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;

/**
 * Applies {@code @Idempotent}: resolves the key and scope of the call, then runs the method through the strategy's
 * store. Settings come precomputed from the {@link OperationRegistry}; nothing here reflects or parses per call.
 */
public final class IdempotencyInterceptor implements MethodInterceptor {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyInterceptor.class);

    private final OperationRegistry registry;
    private final CallBindingFactory bindings;
    private final ScopeResolver scopes;
    private final RedisKeys keys;
    private final RequestIdExecutor requests;
    private final TokenStore tokens;
    private final LeaseLockManager locks;
    private final InvocationObserver observer;

    public IdempotencyInterceptor(
            OperationRegistry registry,
            CallBindingFactory bindings,
            ScopeResolver scopes,
            RedisKeys keys,
            RequestIdExecutor requests,
            TokenStore tokens,
            LeaseLockManager locks,
            InvocationObserver observer) {
        this.registry = registry;
        this.bindings = bindings;
        this.scopes = scopes;
        this.keys = keys;
        this.requests = requests;
        this.tokens = tokens;
        this.locks = locks;
        this.observer = observer;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        IdempotentOperation operation =
                registry.operationOf(invocation.getMethod(), target == null ? null : AopUtils.getTargetClass(target));
        if (operation == null) {
            return invocation.proceed();
        }
        InvocationObserver.Scope observation = observer.start(operation);
        Work work = new Work(invocation);
        Outcome outcome = Outcome.ERROR;
        Throwable error = null;
        try {
            Object result = protect(operation, invocation, work);
            outcome = work.started ? Outcome.EXECUTED : Outcome.REPLAYED;
            return result;
        } catch (IdempotencyStoreUnavailableException ex) {
            if (work.started || !operation.proceedOnStoreFailure()) {
                outcome = work.started ? Outcome.EXECUTED : Outcome.STORE_UNAVAILABLE;
                error = ex;
                throw ex;
            }
            outcome = Outcome.UNPROTECTED;
            log.warn(
                    "Redis unavailable; running {} without idempotency protection: {}",
                    operation.name(),
                    ex.getMessage());
            return invocation.proceed();
        } catch (Throwable ex) {
            outcome = work.started ? Outcome.EXECUTED : Outcome.ofRejection(ex);
            error = ex;
            throw ex;
        } finally {
            observation.end(outcome, error);
        }
    }

    private @Nullable Object protect(IdempotentOperation operation, MethodInvocation invocation, Work work)
            throws Throwable {
        CallBinding binding = bindings.bind(operation, invocation);
        return switch (operation.strategy()) {
            case REQUEST_ID -> requestId(operation, invocation, binding, work);
            case TOKEN -> token(operation, invocation, binding, work);
            case LOCK ->
                locks.callLocked(key(operation, invocation, binding), operation.lease(), operation.maxWait(), work);
        };
    }

    private @Nullable Object requestId(
            IdempotentOperation operation, MethodInvocation invocation, CallBinding binding, Work work)
            throws Throwable {
        String clientKey = ClientKeys.parse(key(operation, invocation, binding));
        String recordKey = keys.requestId(scopes.scope(), binding.operation(), clientKey);
        RequestIdCall call = new RequestIdCall(
                recordKey,
                operation.fingerprint() ? binding.fingerprint() : null,
                operation.ttl(),
                operation.lease(),
                operation.maxWait());
        return requests.execute(call, work, binding.resultCodec());
    }

    private @Nullable Object token(
            IdempotentOperation operation, MethodInvocation invocation, CallBinding binding, Work work)
            throws Throwable {
        String scope = scopes.scope();
        String token = rawKey(operation, invocation, binding);
        tokens.consume(scope, token);
        try {
            return work.get();
        } catch (Throwable failure) {
            restoreQuietly(scope, token, failure);
            throw failure;
        }
    }

    private void restoreQuietly(String scope, @Nullable String token, Throwable failure) {
        try {
            tokens.restore(scope, token == null ? "" : token);
        } catch (RuntimeException ex) {
            failure.addSuppressed(ex);
            log.warn("Could not restore a token after a failed call: {}", ex.getMessage());
        }
    }

    private static @Nullable String rawKey(
            IdempotentOperation operation, MethodInvocation invocation, CallBinding binding) {
        KeyExpression expression = operation.key();
        return expression != null
                ? expression.evaluate(operation.method(), invocation.getArguments(), invocation.getThis())
                : binding.header(operation.header());
    }

    private static String key(IdempotentOperation operation, MethodInvocation invocation, CallBinding binding) {
        String key = rawKey(operation, invocation, binding);
        if (key == null) {
            // The expression itself stays in the log: it is server detail a client has no use for.
            log.debug("Key of {} is null ({})", operation.name(), operation.keySource());
            throw new MissingIdempotencyKeyException(
                    operation.key() != null
                            ? "The request has no idempotency key"
                            : "The request has no " + operation.header() + " header");
        }
        return key;
    }

    /** The method call, remembering whether it started: a Redis failure after that must not run it a second time. */
    private static final class Work implements CheckedSupplier<@Nullable Object, Throwable> {

        private final MethodInvocation invocation;
        private boolean started;

        Work(MethodInvocation invocation) {
            this.invocation = invocation;
        }

        @Override
        public @Nullable Object get() throws Throwable {
            started = true;
            return invocation.proceed();
        }
    }
}

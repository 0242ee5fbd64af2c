package dev.idempotency.internal.aop;

import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.internal.operation.ReturnTypeFlow;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.Permit;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;

/**
 * A bean method returning a {@link CompletionStage} (or {@link CompletableFuture}): the claim, token or lock is held
 * until the future completes. Its value is stored when it succeeds; a failure releases the claim, restores the token
 * and releases the lock. A duplicate gets a completed future with the stored value. A caller that cancels the returned
 * future does not stop the work: it runs on, detached ({@link Permit#detach}: renewed for {@code detached-renewal} at
 * most), and is settled when it ends.
 */
public final class FutureCallFlow implements InvocationFlow, ReturnTypeFlow {

    @Override
    public boolean supports(Class<?> returnType) {
        return CompletionStage.class.isAssignableFrom(returnType);
    }

    @Override
    public InvocationFlow flow() {
        return this;
    }

    @Override
    public Type valueType(Method method) {
        return ResolvableType.forMethodReturnType(method)
                .as(CompletionStage.class)
                .getGeneric(0)
                .getType();
    }

    @Override
    public @Nullable Object run(ProtectedInvocation call) throws Throwable {
        InvocationObserver.Scope observation = call.observe();
        ResultCodec<@Nullable Object> codec = call.spec().beanCall().codec();
        Permit permit;
        try {
            StrategyRunner.Admitted<@Nullable Object> admitted =
                    StrategyRunner.admit(() -> call.strategy().admit(BlockingCallFlow.beanCall(call)), codec::decode);
            if (admitted.isReplay()) {
                observation.end(Outcome.REPLAYED, null);
                return CompletableFuture.completedFuture(admitted.replayed());
            }
            permit = admitted.permit();
        } catch (Throwable failure) {
            return Unprotected.runOrRethrow(call, observation, failure, false);
        }
        Object returned;
        try {
            returned = permit.callWithin(call::proceed);
        } catch (Throwable failure) {
            Futures.join(permit.fail());
            observation.end(Outcome.EXECUTED, failure);
            throw failure;
        }
        observation.detach(); // the future completes on another thread
        if (returned == null) {
            Futures.join(permit.succeed(null));
            observation.end(Outcome.EXECUTED, null);
            return null;
        }
        CompletableFuture<@Nullable Object> settled = new CompletableFuture<>();
        settled.whenComplete((value, failure) -> {
            if (settled.isCancelled()) {
                permit.detach(call.protection().detachedRenewal());
            }
        });
        ((CompletionStage<?>) returned).whenComplete((value, failure) -> {
            Throwable cause = failure == null ? null : Futures.unwrap(failure);
            CompletableFuture<Void> settling =
                    cause == null ? StrategyRunner.succeed(permit, codec, value) : permit.fail();
            settling.whenComplete((done, ignored) -> {
                observation.end(Outcome.EXECUTED, cause);
                if (cause == null) {
                    settled.complete(value);
                } else {
                    settled.completeExceptionally(cause);
                }
            });
        });
        return settled;
    }
}

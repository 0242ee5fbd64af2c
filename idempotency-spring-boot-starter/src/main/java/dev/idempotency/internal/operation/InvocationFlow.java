package dev.idempotency.internal.operation;

import org.jspecify.annotations.Nullable;

/** How one kind of call runs under protection: a blocking bean call, an asynchronous one, an HTTP exchange. */
@FunctionalInterface
public interface InvocationFlow {

    /** Runs the call: admits it, then replays or proceeds, and settles when the work ends. */
    @Nullable
    Object run(ProtectedInvocation call) throws Throwable;
}

package dev.idempotency.aop;

import org.aopalliance.intercept.MethodInvocation;

/** Creates the {@link CallBinding} of one invocation; the web binding replaces the plain one in servlet applications. */
@FunctionalInterface
public interface CallBindingFactory {

    CallBinding bind(IdempotentOperation operation, MethodInvocation invocation);
}

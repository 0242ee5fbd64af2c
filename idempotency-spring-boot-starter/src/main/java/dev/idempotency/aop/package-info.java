/** The Spring AOP advisor and interceptor that apply {@link dev.idempotency.Idempotent} to bean methods. */
@NullMarked
package dev.idempotency.aop;

import org.jspecify.annotations.NullMarked;

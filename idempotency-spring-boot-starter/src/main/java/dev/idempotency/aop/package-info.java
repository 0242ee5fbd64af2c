/** The Spring AOP advisor that applies {@link dev.idempotency.Idempotent} to bean methods. */
@NullMarked
package dev.idempotency.aop;

import org.jspecify.annotations.NullMarked;

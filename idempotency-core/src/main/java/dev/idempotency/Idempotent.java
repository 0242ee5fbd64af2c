package dev.idempotency;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a method take effect once per key, backed by Redis.
 *
 * <p>Every attribute is resolved and validated once, when the application starts: a malformed SpEL key, duration or
 * unknown policy stops startup with a message naming the method.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Idempotent {

    /** The protection to apply. */
    Strategy strategy() default Strategy.REQUEST_ID;

    /**
     * SpEL expression over the method arguments ({@code #order.id}, {@code #p0}) that yields the key. Empty: the key is
     * read from the HTTP header ({@code REQUEST_ID}, {@code TOKEN}); {@code LOCK} requires a key.
     */
    String key() default "";

    /** How long the result (or token) is kept, e.g. {@code "24h"}, {@code "PT30S"} or {@code "${placeholder}"}. */
    String ttl() default "";

    /** Name of a block under {@code idempotency.policies} whose settings apply to this method. */
    String policy() default "";

    /**
     * Names the operation that keys are scoped by. Empty: the HTTP method and route pattern of a handler, or the
     * target class and method signature of any other bean method. Give two methods the same name when they must share
     * records on purpose.
     */
    String operation() default "";
}

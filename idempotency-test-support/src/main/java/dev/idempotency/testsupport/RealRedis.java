package dev.idempotency.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class (or method) that takes real Redis servers as parameters: {@link RedisServer},
 * {@link RedisCluster}, {@link RedisReplicaPair} or {@link RedisSentinel}, in constructors, test methods and lifecycle
 * methods. Shorthand for {@code @ExtendWith(RedisExtension.class)}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@ExtendWith(RedisExtension.class)
public @interface RealRedis {}

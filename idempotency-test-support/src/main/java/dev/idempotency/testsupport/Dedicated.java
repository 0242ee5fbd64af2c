package dev.idempotency.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Asks {@link RedisExtension} for a fresh server or cluster instead of the shared one, so the test may
 * kill, pause, restart or flush it. It is closed when the scope that asked for it ends: after the test
 * method for a method parameter, after the test class for a {@code @BeforeAll} or constructor parameter.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Dedicated {

    /** Replicas per master for a {@link RedisCluster} parameter (0 to 2); ignored for other types. */
    int clusterReplicas() default 0;
}

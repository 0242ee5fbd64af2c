package dev.idempotency.aop;

import dev.idempotency.Idempotent;
import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.core.Ordered;

/**
 * Applies idempotency to {@code @Idempotent} methods of any bean.
 *
 * <p>Its order, {@link #DEFAULT_ORDER} unless {@code idempotency.advisor-order} says otherwise, puts it outside
 * {@code @Transactional} (whose advisor has {@link Ordered#LOWEST_PRECEDENCE}): the result is stored only after the
 * transaction committed, and a rolled-back call releases its claim.
 */
public final class IdempotencyAdvisor extends AbstractPointcutAdvisor {

    /** One step before {@code @Transactional}'s advisor, so that idempotency wraps the transaction. */
    public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 1;

    /** The interceptor applied to {@code @Idempotent} methods. */
    private final Advice advice;

    /** Matches methods annotated with {@code @Idempotent}, also through interfaces and superclasses. */
    private final Pointcut pointcut = new AnnotationMatchingPointcut(null, Idempotent.class, true);

    /**
     * Creates the advisor at {@link #DEFAULT_ORDER}.
     *
     * @param advice the interceptor applied to {@code @Idempotent} methods
     */
    public IdempotencyAdvisor(Advice advice) {
        this.advice = advice;
        setOrder(DEFAULT_ORDER);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return advice;
    }
}

package dev.idempotency.internal.kotlin;

import dev.idempotency.spi.ContextHolder;
import kotlin.coroutines.AbstractCoroutineContextElement;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.ThreadContextElement;

/**
 * A coroutine context element that binds protected work's contexts on the thread that runs the coroutine, and binds
 * back what that thread had when the coroutine suspends or ends (as {@code ThreadLocal.asContextElement} would).
 */
final class ContextElement extends AbstractCoroutineContextElement
        implements ThreadContextElement<ContextHolder.Binding> {

    /** One key: a nested protected call's element replaces its caller's, and holds the caller's contexts as outer. */
    private static final CoroutineContext.Key<ContextElement> KEY = new CoroutineContext.Key<>() {};

    private final ContextHolder.Binding binding;

    ContextElement(ContextHolder.Binding binding) {
        super(KEY);
        this.binding = binding;
    }

    @Override
    public ContextHolder.Binding updateThreadContext(CoroutineContext context) {
        ContextHolder.Binding before = ContextHolder.current();
        binding.bind();
        return before;
    }

    @Override
    public void restoreThreadContext(CoroutineContext context, ContextHolder.Binding before) {
        before.bind();
    }
}

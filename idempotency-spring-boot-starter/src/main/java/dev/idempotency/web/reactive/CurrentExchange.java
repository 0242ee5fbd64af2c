package dev.idempotency.web.reactive;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;

/**
 * The {@link ExchangeState} of the exchange whose handler runs on the current thread, for handlers that return a
 * plain value: WebFlux calls them inside its own operators, where only Reactor's automatic context propagation brings
 * the exchange's context (and so this thread local) along.
 */
final class CurrentExchange implements ThreadLocalAccessor<ExchangeState> {

    private static final ThreadLocal<ExchangeState> CURRENT = new ThreadLocal<>();

    private CurrentExchange() {}

    /** Registers the accessor with Micrometer's context registry, once per JVM. */
    static synchronized void register() {
        ContextRegistry registry = ContextRegistry.getInstance();
        boolean known = registry.getThreadLocalAccessors().stream()
                .anyMatch(accessor -> ExchangeState.KEY.equals(accessor.key()));
        if (!known) {
            registry.registerThreadLocalAccessor(new CurrentExchange());
        }
    }

    static @Nullable ExchangeState get() {
        return CURRENT.get();
    }

    @Override
    public Object key() {
        return ExchangeState.KEY;
    }

    @Override
    public @Nullable ExchangeState getValue() {
        return CURRENT.get();
    }

    @Override
    public void setValue(ExchangeState value) {
        CURRENT.set(value);
    }

    @Override
    public void setValue() {
        CURRENT.remove();
    }
}

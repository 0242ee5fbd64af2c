package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.Strategy;
import dev.idempotency.spi.StoreListener;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The composite of several listeners passes every callback of the SPI on to each of them, new ones included. */
class StoreListenersTests {

    @Test
    void everyCallbackReachesEveryListener() throws Exception {
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        StoreListener composite = StoreListeners.composite(List.of(recording(first), recording(second)));
        List<String> callbacks = new ArrayList<>();
        for (Method callback : StoreListener.class.getMethods()) {
            if (callback.isDefault()) {
                callbacks.add(callback.getName());
                callback.invoke(composite, arguments(callback));
            }
        }
        assertThat(callbacks).contains("onResultNotStored", "onTokenRefused");
        assertThat(first).containsExactlyInAnyOrderElementsOf(callbacks);
        assertThat(second).containsExactlyInAnyOrderElementsOf(callbacks);
    }

    private static StoreListener recording(List<String> calls) {
        return (StoreListener) Proxy.newProxyInstance(
                StoreListener.class.getClassLoader(), new Class<?>[] {StoreListener.class}, (proxy, method, args) -> {
                    calls.add(method.getName());
                    return null;
                });
    }

    private static Object[] arguments(Method callback) {
        Object[] arguments = new Object[callback.getParameterCount()];
        Class<?>[] types = callback.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            arguments[i] = types[i] == long.class
                    ? 1L
                    : types[i] == boolean.class ? Boolean.FALSE : types[i] == Strategy.class ? Strategy.LOCK : "x";
        }
        return arguments;
    }
}

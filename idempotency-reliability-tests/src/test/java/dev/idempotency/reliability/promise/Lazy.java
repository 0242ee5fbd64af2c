package dev.idempotency.reliability.promise;

import java.util.function.Consumer;
import java.util.function.Supplier;

/** A part of the bench started on first use, so that replaying one property starts only what it needs. */
final class Lazy<T> {

    private final Supplier<T> start;
    private T value;

    Lazy(Supplier<T> start) {
        this.start = start;
    }

    synchronized T get() {
        if (value == null) {
            value = start.get();
        }
        return value;
    }

    synchronized void close(Consumer<T> stop) {
        if (value != null) {
            stop.accept(value);
            value = null;
        }
    }
}

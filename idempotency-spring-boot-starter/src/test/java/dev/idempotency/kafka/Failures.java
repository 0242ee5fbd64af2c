package dev.idempotency.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * Failures a test scripts per record value and delivery attempt, for listeners that drive the error handler: each
 * attempt asks the script what to throw, if anything.
 */
final class Failures {

    private final Map<String, IntFunction<@Nullable RuntimeException>> scripts = new ConcurrentHashMap<>();
    private final Executions attempts = new Executions();

    /** From now on, attempt {@code n} (from 1) at {@code value} throws {@code failureOnAttempt.apply(n)}, if any. */
    void script(String value, IntFunction<@Nullable RuntimeException> failureOnAttempt) {
        scripts.put(value, failureOnAttempt);
    }

    /** Counts an attempt at {@code value} and throws what its script says, if anything. */
    void attempt(String value) {
        int attempt = attempts.increment(value);
        IntFunction<@Nullable RuntimeException> script = scripts.get(value);
        RuntimeException failure = script == null ? null : script.apply(attempt);
        if (failure != null) {
            throw failure;
        }
    }

    /** How often {@code value} was attempted. */
    int attempts(String value) {
        return attempts.of(value);
    }
}

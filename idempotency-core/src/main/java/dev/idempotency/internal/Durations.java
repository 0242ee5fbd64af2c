package dev.idempotency.internal;

import java.time.Duration;

/** Small helpers for {@link Duration} that Java 17 lacks. */
public final class Durations {

    private Durations() {}

    /** Whether {@code duration} is longer than zero ({@code Duration.isPositive()} arrived only in Java 18). */
    public static boolean isPositive(Duration duration) {
        return !duration.isNegative() && !duration.isZero();
    }
}

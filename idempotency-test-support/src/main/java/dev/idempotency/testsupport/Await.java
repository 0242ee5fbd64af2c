package dev.idempotency.testsupport;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Bounded polling: every wait in the harness ends, with a message that says what never happened. */
public final class Await {

    private static final long POLL_MILLIS = 50;

    private Await() {}

    /**
     * Polls {@code condition} until it holds. The condition may throw to give up early, e.g. when the
     * process it waits for has died; {@code details} is appended to the timeout message.
     */
    public static void until(Duration timeout, String what, BooleanSupplier condition, Supplier<String> details) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                String extra = details.get();
                throw new IllegalStateException("Timed out after " + timeout.toMillis() + " ms waiting for " + what
                        + (extra.isEmpty() ? "" : "\n" + extra));
            }
            sleep(POLL_MILLIS);
        }
    }

    public static void until(Duration timeout, String what, BooleanSupplier condition) {
        until(timeout, what, condition, () -> "");
    }

    /** Waits for {@code latch} to open, at most 30 seconds; fails naming the latch ({@code what}) when it never does. */
    public static void latch(CountDownLatch latch, String what) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Timed out after 30 s waiting for the latch '" + what + "'");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the latch '" + what + "'", e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting", e);
        }
    }
}

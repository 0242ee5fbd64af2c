package dev.idempotency.client;

import java.time.Duration;

/**
 * How the RestClient interceptor waits between two attempts. The auto-configuration takes a bean of this type when
 * there is one, which only code in this package can declare: tests use it to record the waits asked for instead of
 * waiting them out.
 */
@FunctionalInterface
interface Sleeper {

    /** Blocks the calling thread, which a RestClient call blocks by contract anyway. */
    Sleeper THREAD = wait -> Thread.sleep(wait.toMillis());

    void sleep(Duration wait) throws InterruptedException;
}

package dev.idempotency;

/**
 * Work that returns a value and may throw; {@code E} is inferred, so a plain lambda throws nothing checked while an AOP
 * {@code invocation::proceed} passes its {@code Throwable} through unchanged.
 */
@FunctionalInterface
public interface CheckedSupplier<T, E extends Throwable> {

    /**
     * Runs the work.
     *
     * @return its result
     * @throws E whatever the work throws
     */
    T get() throws E;
}

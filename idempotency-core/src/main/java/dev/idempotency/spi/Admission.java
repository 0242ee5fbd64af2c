package dev.idempotency.spi;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** What an admitted call does next: run its work, or hand back what an earlier execution stored. */
public sealed interface Admission {

    /** The work runs; settle the permit when it ends. */
    record Proceed(Permit permit) implements Admission {}

    /**
     * An earlier execution completed; {@code result} is what it stored and the work does not run.
     *
     * @param result the stored bytes, as the earlier execution's codec encoded them
     * @param discard handles a stored result that cannot be decoded: removes it, so that the next admission runs the
     *     work again, or fails with {@link dev.idempotency.UndecodableResultException} when the work must not run
     *     again
     */
    record Replay(byte[] result, Supplier<CompletableFuture<Void>> discard) implements Admission {}
}

package dev.idempotency.spi;

import dev.idempotency.IdempotencyContext;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The right to run one call's work, held from admission until the work ends. The claim or lock behind it is renewed
 * while it is held. Settle it exactly once: {@link #succeed} or {@link #fail}.
 *
 * <p>The futures never complete exceptionally: the work has run by the time a permit is settled, so a Redis failure
 * then is logged, reported to the {@link StoreListener} and, where it helps, retried; the claim or lock then ends with
 * its lease.
 */
public interface Permit {

    /** What the running work may ask about its protection; see {@link IdempotencyContext#current()}. */
    IdempotencyContext context();

    /**
     * The work succeeded. {@code REQUEST_ID} stores {@code result} for duplicates (or, when it is {@code null} or too
     * large, releases the claim so that a retry runs again); {@code LOCK} releases the lock; {@code TOKEN} keeps the
     * token used.
     */
    CompletableFuture<Void> succeed(byte @Nullable [] result);

    /** The work failed: the claim is released, the token restored or the lock released, so a retry can run. */
    CompletableFuture<Void> fail();
}

package dev.idempotency.internal.requestid;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Where {@code REQUEST_ID} records live: claim, complete, renew and release, the last three guarded by the claim's
 * owner so a stale execution never overwrites another's record. Every operation answers without blocking its caller,
 * which may be an event loop.
 */
public interface RequestIdStore {

    /** Claims {@code recordKey} for a new execution, or reports what holds it. */
    CompletableFuture<ClaimOutcome> claim(String recordKey, String fingerprint, Duration lease);

    /**
     * This store, for a caller that waits for each answer on its own thread, one that may block (a request thread, a
     * listener's, a bean caller's): a store whose statements block may run them on that thread. Never for a renewal,
     * which runs on a timer's thread.
     */
    default RequestIdStore onWaitingThread() {
        return this;
    }

    /**
     * Stores the result for {@code ttl} ({@code null}: completes the key without one); {@code false} when another
     * execution holds the key now. A record that is gone (its lease ran out, or the store lost it) is completed too:
     * the work did run, and the result tells duplicates so.
     */
    CompletableFuture<Boolean> complete(Claim claim, byte @Nullable [] result, Duration ttl);

    /** Extends the claim's lease; {@code false} when it is no longer this owner's. */
    CompletableFuture<Boolean> renew(Claim claim, Duration lease);

    /** Removes the claim so a retry runs the work again; {@code false} when it is no longer this owner's. */
    CompletableFuture<Boolean> release(Claim claim);

    /** Deletes a completed record whose result cannot be decoded, unless it changed since it was read. */
    CompletableFuture<Boolean> discard(String recordKey, byte[] value);

    /** Deletes the record whatever it holds, to unstick a key by hand; whether there was one. */
    CompletableFuture<Boolean> delete(String recordKey);

    /** Whether this store lives in a database the work may write to, so that its records can join transactions. */
    default boolean joinsTransactions() {
        return false;
    }

    /**
     * Whether this store can write a record in the transaction bound to this thread (one on the store's own database),
     * so that the record commits or rolls back with the work's own writes.
     */
    default boolean joinsCurrentTransaction() {
        return false;
    }

    /**
     * Whether the transaction bound to this thread (one this store joins) reads from one snapshot, so that a lease
     * renewal of the claim's row would make its write of that row fail.
     */
    default boolean currentTransactionKeepsSnapshot() {
        return false;
    }

    /**
     * Marks the claim committed inside the transaction bound to this thread: from that commit on, the work is never run
     * again for its key. {@code false} when the claim is no longer this owner's. Only when
     * {@link #joinsCurrentTransaction}.
     */
    default CompletableFuture<Boolean> markCommittedInTransaction(Claim claim, Duration ttl) {
        throw new UnsupportedOperationException("This store cannot join a transaction");
    }

    /**
     * {@link #complete} inside the transaction bound to this thread, on this thread: the future is done when it
     * returns, and the record commits or rolls back with the transaction. Only when {@link #joinsCurrentTransaction}.
     */
    default CompletableFuture<Boolean> completeInTransaction(Claim claim, byte @Nullable [] result, Duration ttl) {
        throw new UnsupportedOperationException("This store cannot join a transaction");
    }
}

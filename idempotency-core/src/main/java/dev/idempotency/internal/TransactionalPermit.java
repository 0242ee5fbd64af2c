package dev.idempotency.internal;

/**
 * A permit whose record lives in the database the work writes to (a JDBC record store), so that the record of a call
 * can commit, or roll back, together with the work's own writes.
 */
public interface TransactionalPermit {

    /** Whether the record can be written in the transaction bound to this thread now (one on the store's database). */
    boolean joinsCurrentTransaction();

    /**
     * From now on, completes on the calling thread inside its transaction: the future of {@code succeed} is done when
     * it returns, and fails (failing the commit) when the record cannot be written, or the claim was taken over
     * ({@link dev.idempotency.ClaimTakenOverException}).
     */
    void joinTransaction();

    /**
     * Marks, inside the transaction bound to this thread, that the work's writes commit: from that commit on, the work
     * is never run again for this key, whatever happens to the call afterwards (the answer then replays, or, lost,
     * is reported as not kept).
     *
     * @throws dev.idempotency.ClaimTakenOverException when the claim was taken over (its lease ran out):
     *     the transaction must not commit, or the work would be done twice
     */
    void markCommitted();

    /** The transaction that marked the claim committed did commit: the work's writes are kept. */
    void workCommitted();

    /**
     * Whether the work's writes committed with the mark ({@link #workCommitted}): a transaction around the call that
     * then rolls back (a Kafka transaction) must store the result, not release the key.
     */
    boolean isWorkCommitted();

    /**
     * The transaction that carries the work is bound to this thread now (begun inside the call, or around it). Under
     * REPEATABLE READ or SERIALIZABLE the lease is no longer renewed from here on: a renewal of the claim's row after
     * the transaction's snapshot would make the transaction's own write of that row fail. The lease then lasts its
     * remaining time; a takeover after it fails the commit, as any takeover does.
     */
    void workTransactionBegan();
}

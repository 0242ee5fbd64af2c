package dev.idempotency.internal;

/**
 * A permit whose completion can be written inside the transaction of its work, so that the record of the call and the
 * work's own writes commit, or roll back, together (a JDBC record store in the application's database).
 */
public interface TransactionalPermit {

    /** Whether the completion can join the transaction bound to this thread now. */
    boolean joinsCurrentTransaction();

    /**
     * From now on, completes on the calling thread inside its transaction: the future of {@code succeed} is done when
     * it returns, and fails (failing the commit) when the record cannot be written.
     */
    void joinTransaction();
}

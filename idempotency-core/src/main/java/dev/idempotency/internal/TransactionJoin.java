package dev.idempotency.internal;

import dev.idempotency.CheckedSupplier;
import java.util.ArrayDeque;
import java.util.Deque;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Joins the claim of a protected call to the transaction that carries its work, when that transaction begins and
 * commits inside the call (the method's own {@code @Transactional}, a service the handler calls): just before it
 * commits, the claim is marked committed on the transaction's own connection, so the mark and the work's writes commit
 * together. After that commit the work is never run again for its key, even if the process dies before the answer is
 * stored. Side transactions settle nothing: one that begins while another begun in the call is still open (a
 * {@code REQUIRES_NEW} audit row, another database's transaction), a read-only one, one on another database, and every
 * one when the call itself runs inside a transaction on the store's database (that transaction carries the work, and
 * {@link TransactionCompletion} completes the record in it). Registered on the application's transaction managers; it
 * acts only for permits whose store joins transactions (the JDBC store).
 */
public final class TransactionJoin implements TransactionExecutionListener {

    private static final TransactionJoin INSTANCE = new TransactionJoin();

    private static final ThreadLocal<@Nullable Deque<Call>> RUNNING = new ThreadLocal<>();

    private TransactionJoin() {}

    /** The listener to add to each transaction manager ({@code ConfigurableTransactionManager.addListener}). */
    public static TransactionExecutionListener listener() {
        return INSTANCE;
    }

    /**
     * Runs {@code work} with {@code permit} as the innermost call on this thread whose transactions it joins; for the
     * permits of a store that joins transactions.
     */
    public static <T, E extends Throwable> T callWith(TransactionalPermit permit, CheckedSupplier<T, E> work) throws E {
        Deque<Call> running = RUNNING.get();
        if (running == null) {
            running = new ArrayDeque<>();
            RUNNING.set(running);
        }
        boolean aroundTransaction = permit.joinsCurrentTransaction();
        if (aroundTransaction) {
            permit.workTransactionBegan();
        }
        running.push(new Call(permit, aroundTransaction));
        try {
            return work.get();
        } finally {
            running.pop();
            if (running.isEmpty()) {
                RUNNING.remove();
            }
        }
    }

    @Override
    public void afterBegin(TransactionExecution transaction, @Nullable Throwable beginFailure) {
        Deque<Call> running = RUNNING.get();
        if (beginFailure != null
                || running == null
                || !transaction.isNewTransaction()
                || !TransactionSynchronizationManager.isSynchronizationActive()) {
            return;
        }
        Call call = running.element();
        boolean side = call.aroundTransaction || call.open > 0 || transaction.isReadOnly();
        call.open++;
        if (!side) {
            call.permit.workTransactionBegan();
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

            private boolean marked;

            @Override
            public void beforeCommit(boolean readOnly) {
                if (!side && !readOnly && call.permit.joinsCurrentTransaction()) {
                    call.permit.markCommitted();
                    marked = true;
                }
            }

            @Override
            public void afterCompletion(int status) {
                call.open--;
                if (marked && status == STATUS_COMMITTED) {
                    call.permit.workCommitted();
                }
            }
        });
    }

    /**
     * A protected call running on this thread.
     *
     * @param aroundTransaction whether it began inside a transaction on the store's database, which carries its work
     */
    private static final class Call {

        final TransactionalPermit permit;
        final boolean aroundTransaction;

        /** Transactions begun inside the call that have not ended: one that begins meanwhile is a side transaction. */
        int open;

        Call(TransactionalPermit permit, boolean aroundTransaction) {
            this.permit = permit;
            this.aroundTransaction = aroundTransaction;
        }
    }
}

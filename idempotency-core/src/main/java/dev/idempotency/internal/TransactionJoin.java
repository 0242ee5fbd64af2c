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
 * Joins the claim of a protected call to every transaction that begins and commits inside it (the method's own
 * {@code @Transactional}, a service the handler calls): just before such a transaction commits, the claim is marked
 * committed on the transaction's own connection, so the mark and the work's writes commit together. After that commit
 * the work is never run again for its key, even if the process dies before the answer is stored. Registered on the
 * application's transaction managers; it acts only for permits whose store joins transactions (the JDBC store).
 */
public final class TransactionJoin implements TransactionExecutionListener {

    private static final TransactionJoin INSTANCE = new TransactionJoin();

    private static final ThreadLocal<@Nullable Deque<TransactionalPermit>> RUNNING = new ThreadLocal<>();

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
        Deque<TransactionalPermit> running = RUNNING.get();
        if (running == null) {
            running = new ArrayDeque<>();
            RUNNING.set(running);
        }
        running.push(permit);
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
        Deque<TransactionalPermit> running = RUNNING.get();
        if (beginFailure != null
                || running == null
                || transaction.isReadOnly()
                || !TransactionSynchronizationManager.isSynchronizationActive()) {
            return;
        }
        TransactionalPermit permit = running.peek();
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void beforeCommit(boolean readOnly) {
                if (!readOnly && permit.joinsCurrentTransaction()) {
                    permit.markCommitted();
                }
            }
        });
    }
}

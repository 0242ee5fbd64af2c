package dev.idempotency.internal;

import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.Permit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Settles a call whose work ran inside a Spring-managed transaction (JDBC, JPA, Kafka, any transaction manager that
 * synchronizes) with that transaction: the result is stored, the token kept used and the lock released only after the
 * commit; a rollback, or a commit that throws, settles it as failed (claim released, token restored, lock released),
 * so a retry runs the work again instead of replaying work that never committed. This holds whatever the advisor's
 * order, and for transactions opened around the caller. A store in the transaction's own database
 * ({@link TransactionalPermit}) writes the completion inside the transaction instead, just before it commits: the
 * record and the work's writes then commit together, and a crash can never keep one without the other.
 */
final class TransactionCompletion {

    private static final Logger log = LoggerFactory.getLogger(TransactionCompletion.class);

    private TransactionCompletion() {}

    /**
     * Defers the settlement of {@code permit} to the end of the transaction bound to this thread, if there is one.
     *
     * @return whether it was deferred; when not, settle now
     */
    static <T> boolean deferred(Permit permit, ResultCodec<T> codec, T result) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            return false;
        }
        boolean joining =
                permit instanceof TransactionalPermit transactional && transactional.joinsCurrentTransaction();
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

            private boolean completedInside;

            @Override
            public void beforeCommit(boolean readOnly) {
                if (joining && !readOnly) {
                    // Written on the transaction's connection: a failure here fails the commit, and the claim is
                    // released below.
                    ((TransactionalPermit) permit).joinTransaction();
                    Futures.join(StrategyRunner.succeed(permit, codec, result));
                    completedInside = true;
                }
            }

            @Override
            public void afterCompletion(int status) {
                if (status == STATUS_COMMITTED) {
                    if (!completedInside) {
                        Futures.join(StrategyRunner.succeed(permit, codec, result));
                    }
                } else if (permit instanceof TransactionalPermit transactional && transactional.isWorkCommitted()) {
                    // The work's own transaction committed inside the call (a database transaction under a Kafka
                    // one): its writes are kept, so the result still in memory is stored for the retry to replay.
                    log.debug("The transaction around an idempotent call did not commit, but its work's did; stored");
                    Futures.join(StrategyRunner.succeed(permit, codec, result));
                } else {
                    log.debug("The transaction around an idempotent call did not commit; its protection is released");
                    Futures.join(permit.fail());
                }
            }
        });
        return true;
    }
}

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
 * order, and for transactions opened around the caller.
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
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                if (status == STATUS_COMMITTED) {
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

package dev.idempotency.reliability.promise;

import java.util.List;

/**
 * What the checker reads of an application's executions: the {@link Ledger} of an application in this JVM, or the
 * {@link LedgerFile}s of an application JVM that a history may kill ({@link ChildApp}). Times are
 * {@link System#nanoTime()}.
 */
interface LedgerView {

    /** Every execution that ended. */
    List<Ledger.Execution> ended();

    /** The executions that started and have not ended, in an application still alive. */
    List<Ledger.Started> running();

    /** When the library reported a lease lost, in order. */
    List<Long> lossReports();
}

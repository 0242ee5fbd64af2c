package dev.idempotency.reliability.promise.oracle;

import dev.idempotency.reliability.promise.History;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The liveness of one call: a client that waits gets an answer (any status: 2xx, 4xx, 409, 503...) while the
 * application is up. A call whose client waited its whole {@link CallRecord#PATIENCE} without an answer
 * ({@link CallRecord#waitedOut}) hung: the application kept it open and never wrote its answer (as a WebFlux handler
 * that threw once did, its response never written). The other calls without an answer are not judged here:
 *
 * <ul>
 *   <li>a client that left early (it disconnected, timed out on its own, read slowly and left): it chose not to wait;
 *   <li>a call whose connection broke first: the application ended the exchange (its JVM killed), it did not hang;
 *   <li>a Kafka record: it has no status to wait for, only a reply ({@link Records} judges that).
 * </ul>
 *
 * And a history whose fault legitimately stops answers excuses its calls that waited out ({@link #EXCUSING}).
 */
final class Liveness {

    /**
     * The faults under which a waiting call may get no answer, judged by kind (the oracle knows a history's faults,
     * not when each one began and ended, so a call that waited out any time in such a history is excused):
     *
     * <ul>
     *   <li>{@code APP_KILLED}: the JVM that held the call is dead, and the new one knows nothing of it (its calls
     *       usually end as broken connections, but a call open on the dead JVM's port is not the new JVM's to answer);
     *   <li>{@code SIGSTOP}: Redis paused, so every command the call sends waits for its timeout (and the client's
     *       reconnects after it);
     *   <li>{@code REPLICA_FROZEN}: {@code wait-for-replicas} waits for a replica that cannot acknowledge;
     *   <li>{@code HOLD_REPLIES}: Redis' replies held back on purpose, on an application whose command timeout (6 s)
     *       outlasts the hold: the call waits by design.
     * </ul>
     *
     * Not excused: {@code KILL} (Redis refuses connections: the library answers 503 at once), {@code DROP_REPLIES}
     * (a command without its reply times out, 503), {@code FAILOVER} and {@code TAKEN_OVER} (the stores keep
     * answering). Each of these delays an answer by a command timeout at most, far less than the patience.
     */
    static final Set<History.Fault.Kind> EXCUSING = EnumSet.of(
            History.Fault.Kind.APP_KILLED,
            History.Fault.Kind.SIGSTOP,
            History.Fault.Kind.REPLICA_FROZEN,
            History.Fault.Kind.HOLD_REPLIES);

    private Liveness() {}

    /** Adds a violation to {@code out} if {@code call} waited out its patience without an excusing fault. */
    static void judge(PathContract contract, CallRecord call, Set<History.Fault.Kind> faults, List<String> out) {
        if (contract.records() || !call.waitedOut()) {
            return;
        }
        if (faults.stream().anyMatch(EXCUSING::contains)) {
            return; // a fault that stops answers may have held it: see EXCUSING
        }
        out.add("liveness: " + call + (call.last() ? " (the last call of its key)" : "") + ": its client waited "
                + CallRecord.PATIENCE.toSeconds() + " s and got no answer, though the application was up");
    }
}

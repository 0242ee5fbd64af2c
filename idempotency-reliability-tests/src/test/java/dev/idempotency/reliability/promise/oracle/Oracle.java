package dev.idempotency.reliability.promise.oracle;

import dev.idempotency.reliability.promise.Guard;
import dev.idempotency.reliability.promise.History;
import dev.idempotency.reliability.promise.Ledger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Judges every call of a history, and every run of its work, against the model of the promise ({@link KeyModel}),
 * key by key. The rules of the runs:
 *
 * <ul>
 *   <li>{@code REQUEST_ID}: runs of a key never overlap, and none starts once the kept run started;
 *   <li>{@code TOKEN}: runs of a token never overlap, and none starts once a run that used the token up started;
 *   <li>{@code LOCK}: a run never overlaps another holder's run, and its fencing token is above the token of every
 *       run that started before it.
 * </ul>
 *
 * A {@code REQUEST_ID} or {@code LOCK} run never starts on a claim or lock confirmed after its lease ran out
 * ({@link KeyModel#startedAfterItsLease}).
 *
 * A run is excused only when it started after the lease of the run it overlaps or follows was lost: after the last
 * moment that run knew its lease held ({@link Ledger.Execution#heldUntil()}), and then the library must have reported
 * the loss (the lost-lease listener) while that run went on.
 *
 * The rules of the answers are {@link Answers}' ({@link Records}' for Kafka records); a call without an answer is
 * judged by {@link Liveness}: a client that waits gets an answer while the application is up. Returns the violations,
 * empty when the promise held.
 */
public final class Oracle {

    /** How long a run must go on past its lost lease for the loss to be reported (a sweep is at most 100 ms). */
    static final long REPORT_GRACE = java.time.Duration.ofSeconds(1).toNanos();

    private Oracle() {}

    /**
     * The faults of a hand-made history that had some, of no kind in particular: every kind, so that each excuses what
     * it may (a call that waited out its patience among them, {@link Liveness}).
     */
    public static final Set<History.Fault.Kind> ANY_FAULT =
            Collections.unmodifiableSet(EnumSet.allOf(History.Fault.Kind.class));

    /**
     * @param calls every call of the history, the last calls included
     * @param runs every run of the history's work that ended, on keys named {@code keyPrefix + number}
     * @param faults the kinds of the faults the history injected, none if empty (a completion may then be lost, a
     *     claim stray, and a waiting call unanswered)
     */
    public static List<String> judge(
            PathContract contract,
            String keyPrefix,
            List<CallRecord> calls,
            List<Ledger.Execution> runs,
            List<Long> lossReports,
            Set<History.Fault.Kind> faults) {
        boolean faulted = !faults.isEmpty();
        List<String> violations = new ArrayList<>();
        calls.stream().mapToInt(CallRecord::key).distinct().sorted().forEach(key -> {
            List<CallRecord> ofKey =
                    calls.stream().filter(call -> call.key() == key).toList();
            KeyModel model = new KeyModel(
                    contract,
                    ofKey,
                    runs.stream()
                            .filter(run -> run.key().equals(keyPrefix + key))
                            .toList());
            runRules(contract.guard(), model, lossReports, violations);
            for (CallRecord call : ofKey) {
                Liveness.judge(contract, call, faults, violations);
                if (contract.records()) {
                    Records.judge(contract, model, call, faulted, violations);
                } else if (call.ending() != CallRecord.Ending.INFO) {
                    Answers.judge(contract, model, call, faulted, violations);
                }
            }
        });
        // A run excused beside and after the same lost lease names its missing loss report once.
        return violations.stream().distinct().toList();
    }

    private static void runRules(Guard guard, KeyModel model, List<Long> lossReports, List<String> violations) {
        List<Ledger.Execution> runs = model.runs();
        Ledger.Execution used = null;
        for (int j = 0; j < runs.size(); j++) {
            Ledger.Execution run = runs.get(j);
            if (guard != Guard.TOKEN && model.startedAfterItsLease(run)) {
                violations.add(rule(guard) + ": " + run.call() + " ran on " + run.key() + " though its "
                        + (guard == Guard.LOCK ? "lock" : "claim") + " was confirmed after its lease had run out");
            }
            for (int i = 0; i < j; i++) {
                Ledger.Execution before = runs.get(i);
                boolean overlap = before.end() == 0 || run.start() < before.end();
                if (overlap && !excused(run, before, lossReports, violations)) {
                    violations.add(rule(guard) + ": " + run.call() + " ran on " + run.key() + " while " + before.call()
                            + " still ran");
                }
                if (guard == Guard.LOCK && run.fence() > 0 && run.fence() <= before.fence()) {
                    violations.add("locks: the fencing token of " + run.call() + " (" + run.fence()
                            + ") is not above that of " + before.call() + " (" + before.fence() + "), which held the"
                            + " lock before it");
                }
            }
            if (used != null && !excused(run, used, lossReports, violations)) {
                violations.add(rule(guard) + ": " + run.call() + " ran " + run.key() + " again after " + used.call()
                        + (guard == Guard.TOKEN ? " used the token up (" : " was kept (") + used.outcome() + ")");
            }
            if (used == null && run == model.kept()) {
                used = run;
            }
        }
    }

    /**
     * {@code run} may run beside or after {@code before} only once {@code before}'s lease was lost: it started after
     * the last moment {@code before} knew it held. The loss must then have been reported while {@code before} ran on
     * (checked when it ran on for {@link #REPORT_GRACE} past the loss: the library looks at its leases every 100 ms at
     * most, and a loss found after the work ended is not reported).
     */
    static boolean excused(
            Ledger.Execution run, Ledger.Execution before, List<Long> lossReports, List<String> violations) {
        if (before.leaseHeld() || run.start() < before.heldUntil()) {
            return false;
        }
        // A run that never held its lease lost it when it started (and heldUntil - MIN_VALUE would overflow).
        boolean ranOn = before.end() == 0 || before.end() - Math.max(before.heldUntil(), before.start()) > REPORT_GRACE;
        if (ranOn && lossReports.stream().noneMatch(at -> at >= before.heldUntil() && at <= before.end())) {
            violations.add("leases: the lease of " + before.call() + " on " + before.key() + " was lost while it ran,"
                    + " and " + run.call() + " ran after it, but no loss was reported");
        }
        return true;
    }

    private static String rule(Guard guard) {
        return guard == Guard.LOCK ? "locks" : "once";
    }
}

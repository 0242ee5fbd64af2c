package dev.idempotency.reliability.promise;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Judges what the oracle ({@code oracle.Oracle}, which judges every answer and every run against the model of the
 * promise) does not: that the history ends. A list of violations, empty when the promise held:
 *
 * <ol>
 *   <li><b>Liveness</b>: after the history every key settles (its last call is answered, and not told "busy"; a
 *       token is back unless a submit was kept), no work still runs, and Redis holds no lock and no in-progress claim.
 *   <li><b>Contract</b>: every status is one of the HTTP table's, and a 409 carries one of its problem types.
 * </ol>
 */
final class PromiseChecker {

    private static final Set<Integer> STATUSES = Set.of(200, 404, 406, 409, 422, 500, 502, 503);
    private static final Set<String> CONFLICTS =
            Set.of("request-in-progress", "lock-busy", "result-not-stored", "token-used");

    private PromiseChecker() {}

    static List<String> check(
            HistoryRunner.Played played,
            List<Ledger.Execution> allExecutions,
            List<Ledger.Started> stillRunning,
            Guard guard) {
        List<String> violations = new ArrayList<>();
        String prefix = played.keyPrefix();
        List<Ledger.Execution> executions = allExecutions.stream()
                .filter(execution -> execution.key().startsWith(prefix))
                .toList();
        stillRunning.stream()
                .filter(started -> started.key().startsWith(prefix))
                .forEach(started -> violations.add("liveness: the work of " + started.call() + " never ended"));
        Set<String> executed = executions.stream().map(Ledger.Execution::call).collect(Collectors.toSet());
        for (Answer answer : played.answers()) {
            contract(answer, violations);
            if (answer.last()) {
                List<Ledger.Execution> ofKey = executions.stream()
                        .filter(execution -> execution.key().equals(played.key(answer.key())))
                        .toList();
                settled(answer, ofKey, executed, guard, violations);
            }
        }
        played.lingering()
                .forEach(held -> violations.add("liveness: one lease after the history, Redis still holds " + held));
        played.left()
                .forEach(held -> violations.add("liveness: one lease after the last calls, Redis still holds " + held));
        return violations;
    }

    /**
     * The last call of a key: answered, not busy, and a token used up only by a kept submit. A record gets no answer
     * but its reply: it must run or get the replay, unless the kept execution had another payload (no redelivery can
     * fix a mismatch, so the record is dropped); under {@code TOKEN} it must run unless a kept run used the token up.
     */
    private static void settled(
            Answer answer, List<Ledger.Execution> ofKey, Set<String> executed, Guard guard, List<String> violations) {
        Ledger.Execution kept = ofKey.stream()
                .filter(execution -> isKept(execution, guard))
                .findFirst()
                .orElse(null);
        boolean tokenGone = "token-used".equals(answer.problem()) && kept == null;
        // A record whose token a kept run used up is refused without a reply, as a used token must be.
        boolean unanswered = answer.status() == Answer.NONE
                && !executed.contains(answer.call())
                && (kept == null || (guard != Guard.TOKEN && kept.answer().endsWith("tag=main")));
        if (answer.isBusy() || answer.status() == 503 || tokenGone) {
            violations.add("liveness: key k" + answer.key() + " never settled, its last call got " + answer.status()
                    + " " + answer.problem());
        } else if (unanswered) {
            violations.add("liveness: key k" + answer.key() + " never settled, its last call was neither answered nor"
                    + " run");
        }
    }

    private static void contract(Answer answer, List<String> violations) {
        int status = answer.status();
        if (status == Answer.NONE) {
            return;
        }
        if (!STATUSES.contains(status)) {
            violations.add("contract: " + answer.call() + " got status " + status);
        }
        if (status == 409 && !CONFLICTS.contains(answer.problem())) {
            violations.add("contract: " + answer.call() + " got 409 of type " + answer.problem());
        }
    }

    /**
     * Kept outcomes are stored and replayed (a success, a returned 4xx); the others release the key. A token is
     * restored only when the work throws: a returned 5xx uses it up.
     */
    private static boolean isKept(Ledger.Execution execution, Guard guard) {
        return switch (execution.outcome()) {
            case "ok", "4xx", "large", "oversize", "unrenderable" -> true; // the last three: delivery, not work
            case "5xx" -> guard == Guard.TOKEN;
            default -> false;
        };
    }
}

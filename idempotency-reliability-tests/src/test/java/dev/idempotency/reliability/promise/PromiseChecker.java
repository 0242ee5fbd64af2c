package dev.idempotency.reliability.promise;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Judges one played history by what the work recorded and what the clients saw. A list of violations, empty when the
 * promise held:
 *
 * <ol>
 *   <li><b>Once</b> ({@code REQUEST_ID}, {@code TOKEN}): executions of a key (a token) never overlap, and none starts
 *       once an execution whose outcome is kept (a success, a returned 4xx) has ended; unless that execution's lease
 *       was lost and reported.
 *   <li><b>Same answer</b>: every success or kept 4xx a client got without its own call running is the kept
 *       execution's answer, byte for byte (a released execution yields no replay); {@code TOKEN} replays nothing.
 *   <li><b>Locks</b> ({@code LOCK}): executions of a resource never overlap, and fencing tokens strictly increase.
 *   <li><b>Liveness</b>: after the history every key settles (its last call is answered, and not told "busy"; a
 *       token is back unless a submit was kept), no work still runs, and Redis holds no lock and no in-progress claim.
 *   <li><b>Contract</b>: every error status is one of the HTTP table's, with its problem type; a 503 comes only with no
 *       execution of its call.
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
        Map<String, List<Ledger.Execution>> byKey = executions.stream()
                .sorted(Comparator.comparingLong(Ledger.Execution::start))
                .collect(Collectors.groupingBy(Ledger.Execution::key));
        byKey.forEach((key, ofKey) -> {
            noOverlap(key, ofKey, guard == Guard.LOCK ? "locks" : "once", violations);
            if (guard == Guard.LOCK) {
                fencesIncrease(key, ofKey, violations);
            } else {
                onceAfterKept(key, ofKey, guard, violations);
            }
        });
        Set<String> executed = executions.stream().map(Ledger.Execution::call).collect(Collectors.toSet());
        for (Answer answer : played.answers()) {
            contract(answer, executed, violations);
            List<Ledger.Execution> ofKey = byKey.getOrDefault(played.key(answer.key()), List.of());
            if (guard == Guard.REQUEST_ID) {
                sameAnswer(answer, ofKey, executed, violations);
            } else if (guard == Guard.TOKEN) {
                noReplay(answer, executed, violations);
            }
            if (answer.last()) {
                settled(answer, ofKey, executed, guard, violations);
            }
        }
        played.lingering()
                .forEach(held -> violations.add("liveness: one lease after the history, Redis still holds " + held));
        played.left()
                .forEach(held -> violations.add("liveness: one lease after the last calls, Redis still holds " + held));
        return violations;
    }

    private static void noOverlap(String key, List<Ledger.Execution> ofKey, String rule, List<String> violations) {
        for (int i = 1; i < ofKey.size(); i++) {
            Ledger.Execution before = ofKey.get(i - 1);
            Ledger.Execution after = ofKey.get(i);
            if (after.start() < before.end() && before.leaseHeld()) {
                violations.add(
                        rule + ": " + after.call() + " ran on " + key + " while " + before.call() + " still ran");
            }
        }
    }

    private static void fencesIncrease(String key, List<Ledger.Execution> ofKey, List<String> violations) {
        for (int i = 1; i < ofKey.size(); i++) {
            if (ofKey.get(i).fence() <= ofKey.get(i - 1).fence()) {
                violations.add("locks: fencing token of " + ofKey.get(i).call() + " on " + key + " did not increase ("
                        + ofKey.get(i - 1).fence() + " then " + ofKey.get(i).fence() + ")");
            }
        }
    }

    private static void onceAfterKept(String key, List<Ledger.Execution> ofKey, Guard guard, List<String> violations) {
        Ledger.Execution kept = null;
        for (Ledger.Execution execution : ofKey) {
            if (kept != null && kept.leaseHeld()) {
                violations.add("once: " + execution.call() + " ran " + key + " again after " + kept.call()
                        + " was kept (" + kept.outcome() + ")");
            }
            if (isKept(execution, guard) && kept == null) {
                kept = execution;
            }
        }
    }

    private static void sameAnswer(
            Answer answer, List<Ledger.Execution> ofKey, Set<String> executed, List<String> violations) {
        boolean success = answer.status() == 200 || answer.status() == 404;
        if (!success || executed.contains(answer.call())) {
            return;
        }
        Ledger.Execution kept = ofKey.stream()
                .filter(execution -> isKept(execution, Guard.REQUEST_ID))
                .findFirst()
                .orElse(null);
        if (kept == null) {
            violations.add("same answer: " + answer.call() + " got " + answer.status() + " \"" + answer.body()
                    + "\" without running, but no execution of its key was kept");
        } else if (!answer.body().equals(kept.answer())) {
            violations.add("same answer: " + answer.call() + " got \"" + answer.body() + "\", the kept answer is \""
                    + kept.answer() + "\"");
        }
    }

    private static void noReplay(Answer answer, Set<String> executed, List<String> violations) {
        if ((answer.status() == 200 || answer.status() == 404) && !executed.contains(answer.call())) {
            violations.add("same answer: " + answer.call() + " got " + answer.status() + " \"" + answer.body()
                    + "\" without running, but a token is never replayed");
        }
    }

    /**
     * The last call of a key: answered, not busy, and a token used up only by a kept submit. A record gets no answer
     * but its reply: it must run or get the replay, unless the kept execution had another payload (no redelivery can
     * fix a mismatch, so the record is dropped).
     */
    private static void settled(
            Answer answer, List<Ledger.Execution> ofKey, Set<String> executed, Guard guard, List<String> violations) {
        Ledger.Execution kept = ofKey.stream()
                .filter(execution -> isKept(execution, guard))
                .findFirst()
                .orElse(null);
        boolean tokenGone = "token-used".equals(answer.problem()) && kept == null;
        boolean unanswered = answer.status() == Answer.NONE
                && !executed.contains(answer.call())
                && (kept == null || kept.answer().endsWith("tag=main"));
        if (answer.isBusy() || answer.status() == 503 || tokenGone) {
            violations.add("liveness: key k" + answer.key() + " never settled, its last call got " + answer.status()
                    + " " + answer.problem());
        } else if (unanswered) {
            violations.add("liveness: key k" + answer.key() + " never settled, its last call was neither answered nor"
                    + " run");
        }
    }

    private static void contract(Answer answer, Set<String> executed, List<String> violations) {
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
        if (status == 503 && executed.contains(answer.call())) {
            violations.add("contract: " + answer.call() + " got 503 (\"not run\"), but its work ran");
        }
    }

    /**
     * Kept outcomes are stored and replayed (a success, a returned 4xx); the others release the key. A token is
     * restored only when the work throws: a returned 5xx uses it up.
     */
    private static boolean isKept(Ledger.Execution execution, Guard guard) {
        return switch (execution.outcome()) {
            case "ok", "4xx" -> true;
            case "5xx" -> guard == Guard.TOKEN;
            default -> false;
        };
    }
}

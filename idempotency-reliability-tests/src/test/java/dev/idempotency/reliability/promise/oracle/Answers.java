package dev.idempotency.reliability.promise.oracle;

import dev.idempotency.reliability.promise.Guard;
import dev.idempotency.reliability.promise.Ledger;
import java.util.List;
import java.util.Objects;

/**
 * The rules of one answered call (the contract's HTTP table, judged against the key's model):
 *
 * <ul>
 *   <li>a 503 means nothing ran for that call;
 *   <li>a call whose work ran gets that work's answer: its status and body, not marked as a replay (or, on Spring MVC's
 *       async timeout, 409 {@code request-in-progress});
 *   <li>{@code REQUEST_ID}, without running: the kept answer exactly (status, body, {@code Idempotent-Replayed: true},
 *       sent with the kept payload, after the kept run ended), or 409 {@code request-in-progress} when another call
 *       may hold the key and it was not done yet (under a fault: a stray claim may hold it), or 422 only when another payload was sent on the key, or 409
 *       {@code result-not-stored} only when a kept run's client left before its answer or the kept answer was not
 *       stored (over {@code max-response-size}, or it failed to render: the work returned, its delivery failed);
 *   <li>{@code TOKEN}, without running: only 409 {@code token-used} once another submit of the token was sent;
 *   <li>{@code LOCK}, without running: only 409 {@code lock-busy} once another call on the key was sent.
 * </ul>
 */
final class Answers {

    private Answers() {}

    static void judge(PathContract contract, KeyModel model, CallRecord call, boolean faulted, List<String> out) {
        List<Ledger.Execution> ran = model.runsOf(call.id());
        if (call.ending() == CallRecord.Ending.FAIL) {
            if (!ran.isEmpty()) {
                out.add("contract: " + call + " got 503 (\"not run\"), but its work ran");
            }
        } else if (!ran.isEmpty()) {
            ownAnswer(contract, call, ran.get(ran.size() - 1), out);
        } else if (contract.guard() == Guard.REQUEST_ID) {
            notRun(contract, model, call, faulted, out);
        } else if (contract.guard() == Guard.TOKEN && !call.conflict("token-used")) {
            out.add("token: " + call + " without running: a token is never replayed, only refused as used");
        } else if (contract.guard() == Guard.LOCK && !call.conflict("lock-busy")) {
            out.add("locks: " + call + " without running: a LOCK answer other than busy means its work ran");
        } else if (!model.othersBefore(call) && !(faulted && contract.guard() == Guard.LOCK)) {
            // A token's submit that finds its own consume proceeds; a lock acquire sent again under a fault may find
            // its own stray lock (LostReplyTests: "the caller gets 503 or 409 without the lock").
            out.add("model: " + call + ", but no other call on its key was sent before its answer");
        }
    }

    private static void ownAnswer(PathContract contract, CallRecord call, Ledger.Execution run, List<String> out) {
        int expected = contract.status(run.outcome());
        if (call.replayed()) {
            out.add("same answer: " + call + " is marked Idempotent-Replayed, but its own work ran");
        } else if (contract.asyncTimeout() && call.conflict("request-in-progress")) {
            return; // Spring MVC's async timeout: the work runs on, its answer is stored for the retry
        } else if (call.status() != expected) {
            out.add("same answer: " + call + ", but its work ended " + run.outcome() + " (answered " + expected + ")");
        } else if (expected != 500 && !call.body().equals(run.answer())) { // a 500 is the error's, not the work's
            out.add("same answer: " + call + " got \"" + call.body() + "\", its work answered \"" + run.answer()
                    + "\"");
        }
    }

    private static void notRun(
            PathContract contract, KeyModel model, CallRecord call, boolean faulted, List<String> out) {
        if (call.status() == 422) {
            if (!model.otherPayloadBefore(call)) {
                out.add("payload: " + call + ", but every call on its key sent the same payload");
            }
        } else if (call.conflict("request-in-progress")) {
            // Under a fault the key may hold a stray claim: one whose reply was lost, even this call's own claim, sent
            // again by the Redis client on its new connection (LostReplyTests: "the caller gets 503 or 409").
            if (!faulted && !model.othersBefore(call)) {
                out.add("model: " + call + ", but no other call on its key was sent before its answer");
            } else if (!faulted && model.stateAt(call.invoked()) == KeyModel.State.DONE) {
                out.add("model: " + call + ", but its key was done before it was sent (the replay or 422 was due)");
            }
        } else if (call.conflict("result-not-stored")) {
            if (!model.keptWithoutItsClient()) {
                out.add("model: " + call + ", but every kept run's answer reached its client, so it was stored");
            }
        } else if (call.status() == 409) {
            out.add("contract: " + call + " on a REQUEST_ID key");
        } else {
            replay(contract, model, call, out);
        }
    }

    /** Any other answer of a call that did not run must be the kept answer, replayed. */
    private static void replay(PathContract contract, KeyModel model, CallRecord call, List<String> out) {
        Ledger.Execution kept = model.keptAnswering(call.body());
        if (kept == null) {
            out.add("same answer: " + call + " without running, but no run of its key was kept");
            return;
        }
        if (!contract.stores(kept.outcome())) {
            out.add("same answer: " + call + " without running, but the kept run's answer (" + kept.outcome()
                    + ") was never stored: 409 result-not-stored was due");
            return;
        }
        int expected = contract.status(kept.outcome());
        if (call.status() != expected || !call.body().equals(kept.answer())) {
            out.add("same answer: " + call + " \"" + call.body() + "\", but the kept answer is " + expected + " \""
                    + kept.answer() + "\"");
        }
        if (contract.replayHeader() && !call.replayed()) {
            out.add("same answer: " + call + " is the kept answer without Idempotent-Replayed: true");
        }
        if (!Objects.equals(model.payloadOf(kept), call.payload())) {
            out.add("payload: " + call + " got the kept answer, but its payload differs from the kept one (422 due)");
        }
        if (kept.end() == 0 || kept.end() > call.completed()) {
            out.add("model: " + call + " got the kept answer before the kept run ended");
        }
    }
}

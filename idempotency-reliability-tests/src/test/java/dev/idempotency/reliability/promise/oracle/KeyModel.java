package dev.idempotency.reliability.promise.oracle;

import dev.idempotency.reliability.promise.History;
import dev.idempotency.reliability.promise.Ledger;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The model of one key's promise, rebuilt from what its work recorded: {@link State#EMPTY} until a run starts,
 * {@link State#IN_PROGRESS} while one runs, {@link State#RELEASED} after a run whose outcome releases the key, and
 * {@link State#DONE} once a run's outcome is kept (its answer and the payload it was sent with). The oracle asks it
 * what a call could have seen.
 */
final class KeyModel {

    /** Where a key's promise stands. */
    enum State {
        EMPTY,
        IN_PROGRESS,
        RELEASED,
        DONE
    }

    private static final long LEASE_NANOS = History.LEASE.toNanos();

    /** How late after its call a claim or lock may be sent (the lock waits up to 300 ms), with room to spare. */
    static final long SEND_SLACK_MILLIS = 800;

    private final PathContract contract;
    private final List<CallRecord> calls;
    private final List<Ledger.Execution> runs;
    private final Ledger.@Nullable Execution kept;

    KeyModel(PathContract contract, List<CallRecord> calls, List<Ledger.Execution> runs) {
        this.contract = contract;
        this.calls = calls;
        this.runs = runs.stream()
                .sorted(Comparator.comparingLong(Ledger.Execution::start))
                .toList();
        this.kept = this.runs.stream()
                .filter(run -> contract.keeps(run.outcome()) && run.leaseHeld())
                .findFirst()
                .or(() -> this.runs.stream()
                        .filter(run -> contract.keeps(run.outcome()))
                        .findFirst())
                .orElse(null);
    }

    List<Ledger.Execution> runs() {
        return runs;
    }

    /**
     * The first run whose outcome is kept and that held its lease to its end, else the first run whose outcome is kept,
     * if any: its answer is the one replayed. (A run whose lease was lost may or may not have stored its answer.)
     */
    Ledger.@Nullable Execution kept() {
        return kept;
    }

    /** The payload the kept run was sent with (its digest, in the model), if any. */
    @Nullable
    String keptPayload() {
        return payloadOf(kept);
    }

    /** The payload {@code run} was sent with, if any. */
    @Nullable
    String payloadOf(Ledger.@Nullable Execution run) {
        return run == null ? null : call(run.call()).map(CallRecord::payload).orElse(null);
    }

    /**
     * The run whose answer {@code body} is, if it may be the key's stored answer: the kept run, or one of a kept
     * outcome that lost its lease (its completion may have landed before another run claimed the key); else the kept
     * run.
     */
    Ledger.@Nullable Execution keptAnswering(String body) {
        return runs.stream()
                .filter(run -> contract.keeps(run.outcome())
                        && !run.leaseHeld()
                        && run.answer().equals(body))
                .findFirst()
                .orElse(kept);
    }

    List<Ledger.Execution> runsOf(String call) {
        return runs.stream().filter(run -> run.call().equals(call)).toList();
    }

    /**
     * The state at {@code nanos}: done from the moment the kept run's own client had its answer (the library stores
     * the answer before it sends it), in progress while a run covers that moment.
     */
    State stateAt(long nanos) {
        if (kept != null) {
            CallRecord owner = call(kept.call()).orElse(null);
            if (owner != null && owner.status() == contract.status(kept.outcome()) && owner.completed() <= nanos) {
                return State.DONE;
            }
        }
        if (runs.stream().anyMatch(run -> run.start() <= nanos && (run.end() == 0 || nanos < run.end()))) {
            return State.IN_PROGRESS;
        }
        return runs.stream().anyMatch(run -> run.end() != 0 && run.end() <= nanos) ? State.RELEASED : State.EMPTY;
    }

    /** Another call on the key was sent before {@code call} was over: it may hold the key, the lock or the token. */
    boolean othersBefore(CallRecord call) {
        return calls.stream().anyMatch(other -> !other.id().equals(call.id()) && other.invoked() < call.completed());
    }

    /** Another call with another payload was sent before {@code call} was over: its fingerprint may be the key's. */
    boolean otherPayloadBefore(CallRecord call) {
        return calls.stream()
                .anyMatch(other -> !other.payload().equals(call.payload()) && other.invoked() < call.completed());
    }

    /**
     * A run of a call with another payload held the key after {@code call} was sent: its claim carried its own
     * fingerprint, so {@code call} may have been refused as a mismatch (422), whatever that run's fate. When a Kafka
     * record was consumed is not recorded (only its send), so any such run after the send counts.
     */
    boolean otherPayloadRanMeanwhile(CallRecord call) {
        return runs.stream()
                .filter(run -> run.end() == 0 || run.end() > call.invoked())
                .anyMatch(run -> call(run.call())
                        .map(owner -> !owner.payload().equals(call.payload()))
                        .orElse(false));
    }

    /**
     * Under {@code TOKEN}, another call's run may have used {@code call}'s token when it came: that run used it up
     * (its outcome keeps), or had not ended when {@code call} was sent, or, after a fault, ran at all (its give-back
     * may have waited for Redis). When a Kafka record was consumed is not recorded, only its send.
     */
    boolean tokenUsedByAnother(CallRecord call, boolean faulted) {
        return runs.stream()
                .filter(run -> !run.call().equals(call.id()))
                .anyMatch(run ->
                        faulted || contract.keeps(run.outcome()) || run.end() == 0 || run.end() > call.invoked());
    }

    /**
     * The key may be completed without a stored answer: the kept answer was not stored (over the size limit, or it
     * failed to render), or a kept run's client left before its answer.
     */
    boolean keptWithoutItsClient() {
        if (kept != null && !contract.stores(kept.outcome())) {
            return true;
        }
        return runs.stream()
                .filter(run -> contract.keeps(run.outcome()))
                .anyMatch(run -> call(run.call()).map(CallRecord::clientLeft).orElse(false));
    }

    /**
     * Whether {@code run} began on a claim or lock confirmed after its lease had run out: it never held its lease while
     * it ran ({@link Ledger.Execution#heldUntil()} never sampled), and it started more than a lease and
     * {@value #SEND_SLACK_MILLIS} ms after its call was sent. The lease is counted from when the claim or lock was sent,
     * at most the lock's 300 ms wait (plus dispatch) after the call; so a run that holds nothing that late was admitted
     * by a reply that came after its lease, never by a lease that ran out between its admission and its start.
     */
    boolean startedAfterItsLease(Ledger.Execution run) {
        return run.heldUntil() == Long.MIN_VALUE
                && call(run.call())
                        .filter(call -> run.start() - call.invoked() > LEASE_NANOS + SEND_SLACK_MILLIS * 1_000_000)
                        .isPresent();
    }

    private java.util.Optional<CallRecord> call(String id) {
        return calls.stream().filter(call -> call.id().equals(id)).findFirst();
    }
}

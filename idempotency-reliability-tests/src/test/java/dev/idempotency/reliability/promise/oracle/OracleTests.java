package dev.idempotency.reliability.promise.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.reliability.promise.Guard;
import dev.idempotency.reliability.promise.History.Fault.Kind;
import dev.idempotency.reliability.promise.Ledger;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The oracle on hand-made histories: each rule accepts the right answer and rejects a wrong one. Times are in ms
 * here (the oracle only compares them); keys are {@code p0}, {@code p1}.
 */
class OracleTests {

    private static final String MAIN = "main";
    private static final String OTHER = "other";
    private static final PathContract MVC_REQUEST_ID = PathContract.of("mvc-sync", Guard.REQUEST_ID);
    private static final PathContract MVC_LOCK = PathContract.of("mvc-sync", Guard.LOCK);
    private static final PathContract MVC_TOKEN = PathContract.of("mvc-sync", Guard.TOKEN);
    private static final PathContract KAFKA = PathContract.of("kafka", Guard.REQUEST_ID);
    private static final PathContract KAFKA_TOKEN = PathContract.of("kafka", Guard.TOKEN);

    /** The first call runs (10 to 50), a retry after it gets the replay. */
    private static final Ledger.Execution C0_OK = run("c0", 0, 10, 50, "ok", "exec-1");

    @Test
    void aKeptAnswerReplayedExactlyIsAccepted() {
        assertThat(judge(MVC_REQUEST_ID, List.of(own("c0", 200, "exec-1"), replay("c1", 200, "exec-1")), C0_OK))
                .isEmpty();
    }

    @Test
    void fiveHundredsWhereNothingRanAreRejected() {
        List<CallRecord> calls = List.of(
                answered("c0", 0, 0, 60, 500, "oops", false, null),
                answered("c1", 0, 70, 80, 500, "oops", false, null));
        assertThat(judge(MVC_REQUEST_ID, calls)).hasSize(2).allMatch(v -> v.contains("no run of its key was kept"));
    }

    @Test
    void aKept404ReplayedAs200IsRejected() {
        Ledger.Execution kept404 = run("c0", 0, 10, 50, "4xx", "exec-1");
        List<CallRecord> calls = List.of(own("c0", 404, "exec-1"), replay("c1", 200, "exec-1"));
        assertThat(judge(MVC_REQUEST_ID, calls, kept404))
                .singleElement()
                .asString()
                .contains("the kept answer is 404");
    }

    @Test
    void aReplayWithoutItsHeaderIsRejected() {
        List<CallRecord> calls =
                List.of(own("c0", 200, "exec-1"), answered("c1", 0, 60, 70, 200, "exec-1", false, null));
        assertThat(judge(MVC_REQUEST_ID, calls, C0_OK))
                .singleElement()
                .asString()
                .contains("Idempotent-Replayed");
    }

    @Test
    void a422IsDueExactlyWhenThePayloadDiffers() {
        CallRecord same = answered("c1", 0, 60, 70, 422, "", false, "payload-mismatch");
        assertThat(judge(MVC_REQUEST_ID, List.of(own("c0", 200, "exec-1"), same), C0_OK))
                .singleElement()
                .asString()
                .contains("the same payload");
        CallRecord other = new CallRecord("c1", 0, OTHER, 60, 70, 422, "", false, "payload-mismatch", false, false);
        assertThat(judge(MVC_REQUEST_ID, List.of(own("c0", 200, "exec-1"), other), C0_OK))
                .isEmpty();
        CallRecord otherReplayed = new CallRecord("c1", 0, OTHER, 60, 70, 200, "exec-1", true, null, false, false);
        assertThat(judge(MVC_REQUEST_ID, List.of(own("c0", 200, "exec-1"), otherReplayed), C0_OK))
                .singleElement()
                .asString()
                .contains("422 due");
    }

    @Test
    void inProgressIsAcceptedWhileTheKeyRunsAndRejectedOnceItIsDone() {
        CallRecord during = answered("c1", 0, 20, 25, 409, "", false, "request-in-progress");
        assertThat(judge(MVC_REQUEST_ID, List.of(own("c0", 200, "exec-1"), during), C0_OK))
                .isEmpty();
        CallRecord after = answered("c1", 0, 70, 75, 409, "", false, "request-in-progress");
        assertThat(judge(MVC_REQUEST_ID, List.of(own("c0", 200, "exec-1"), after), C0_OK))
                .singleElement()
                .asString()
                .contains("done before it was sent");
        CallRecord alone = answered("c0", 0, 0, 5, 409, "", false, "request-in-progress");
        assertThat(judge(MVC_REQUEST_ID, List.of(alone)))
                .singleElement()
                .asString()
                .contains("no other call");
    }

    @Test
    void aCallThatRanGetsItsOwnAnswer() {
        assertThat(judge(MVC_REQUEST_ID, List.of(own("c0", 502, "exec-1")), C0_OK))
                .singleElement()
                .asString()
                .contains("its work ended ok");
        assertThat(judge(MVC_REQUEST_ID, List.of(answered("c0", 0, 0, 60, 200, "exec-1", true, null)), C0_OK))
                .singleElement()
                .asString()
                .contains("its own work ran");
    }

    @Test
    void resultNotStoredOnlyWhenTheKeptClientLeft() {
        CallRecord notStored = answered("c1", 0, 60, 70, 409, "", false, "result-not-stored");
        assertThat(judge(MVC_REQUEST_ID, List.of(own("c0", 200, "exec-1"), notStored), C0_OK))
                .hasSize(1);
        CallRecord left = new CallRecord("c0", 0, MAIN, 0, 30, CallRecord.NONE, "", false, null, true, false);
        assertThat(judge(MVC_REQUEST_ID, List.of(left, notStored), C0_OK)).isEmpty();
    }

    @Test
    void anAnswerThatFailedToRenderCompletesTheKeyWithoutAResult() {
        Ledger.Execution unrenderable = run("c0", 0, 10, 50, "unrenderable", "exec-1");
        CallRecord notStored = answered("c1", 0, 60, 70, 409, "", false, "result-not-stored");
        List<CallRecord> calls = List.of(answered("c0", 0, 0, 60, 500, "error", false, null), notStored);
        assertThat(judge(MVC_REQUEST_ID, calls, unrenderable)).isEmpty();
        assertThat(judge(MVC_REQUEST_ID, List.of(calls.get(0), replay("c1", 500, "exec-1")), unrenderable))
                .singleElement()
                .asString()
                .contains("never stored");
        Ledger.Execution second = run("c1", 0, 60, 80, "ok", "exec-2");
        List<CallRecord> ranAgain = List.of(calls.get(0), answered("c1", 0, 55, 90, 200, "exec-2", false, null));
        assertThat(judge(MVC_REQUEST_ID, ranAgain, unrenderable, second))
                .singleElement()
                .asString()
                .contains("again after");
        assertThat(judge(MVC_TOKEN, ranAgain, unrenderable, second))
                .singleElement()
                .asString()
                .contains("used the token up");
        assertThat(judge(MVC_LOCK, ranAgain, unrenderable, second)).isEmpty(); // the lock is released
    }

    @Test
    void anOverSizeAnswerIsSentButNotReplayed() {
        Ledger.Execution oversize = run("c0", 0, 10, 50, "oversize", "exec-1");
        CallRecord notStored = answered("c1", 0, 60, 70, 409, "", false, "result-not-stored");
        assertThat(judge(MVC_REQUEST_ID, List.of(own("c0", 200, "exec-1"), notStored), oversize))
                .isEmpty();
        assertThat(judge(MVC_REQUEST_ID, List.of(own("c0", 200, "exec-1"), replay("c1", 200, "exec-1")), oversize))
                .singleElement()
                .asString()
                .contains("never stored");
    }

    @Test
    void twoOverlappingLockHoldersAreRejected() {
        Ledger.Execution first = new Ledger.Execution(1, "c0", "p0", 7, 10, 50, "ok", true, Long.MAX_VALUE, "exec-1");
        Ledger.Execution second = new Ledger.Execution(2, "c1", "p0", 8, 40, 90, "ok", true, Long.MAX_VALUE, "exec-2");
        List<CallRecord> calls =
                List.of(own("c0", 200, "exec-1"), answered("c1", 0, 5, 95, 200, "exec-2", false, null));
        assertThat(judge(MVC_LOCK, calls, first, second))
                .singleElement()
                .asString()
                .contains("still ran");
        Ledger.Execution after = new Ledger.Execution(2, "c1", "p0", 6, 60, 90, "ok", true, Long.MAX_VALUE, "exec-2");
        assertThat(judge(MVC_LOCK, calls, first, after))
                .singleElement()
                .asString()
                .contains("fencing token");
        Ledger.Execution later = new Ledger.Execution(2, "c1", "p0", 8, 60, 90, "ok", true, Long.MAX_VALUE, "exec-2");
        assertThat(judge(MVC_LOCK, calls, first, later)).isEmpty();
    }

    @Test
    void aSecondHolderIsExcusedOnlyAfterTheFirstLostItsLeaseAndTheLossWasReported() {
        long s = 1_000_000_000L; // this rule compares with the report grace: times in ns here
        Ledger.Execution lost = new Ledger.Execution(1, "c0", "p0", 7, 0, 4 * s, "ok", false, 2 * s, "exec-1");
        List<CallRecord> calls = List.of(
                answered("c0", 0, 0, 4 * s, 200, "exec-1", false, null),
                answered("c1", 0, 2 * s, 4 * s, 200, "exec-2", false, null));
        Ledger.Execution afterLoss =
                new Ledger.Execution(2, "c1", "p0", 8, 3 * s, 4 * s, "ok", true, Long.MAX_VALUE, "exec-2");
        assertThat(Oracle.judge(MVC_LOCK, "p", calls, List.of(lost, afterLoss), List.of(2 * s + 50), Oracle.ANY_FAULT))
                .isEmpty();
        assertThat(Oracle.judge(MVC_LOCK, "p", calls, List.of(lost, afterLoss), List.of(), Oracle.ANY_FAULT))
                .singleElement()
                .asString()
                .contains("no loss was reported");
        Ledger.Execution beforeLoss =
                new Ledger.Execution(2, "c1", "p0", 8, s, 4 * s, "ok", true, Long.MAX_VALUE, "exec-2");
        assertThat(Oracle.judge(MVC_LOCK, "p", calls, List.of(lost, beforeLoss), List.of(2 * s + 50), Oracle.ANY_FAULT))
                .singleElement()
                .asString()
                .contains("still ran");
    }

    @Test
    void aRunAdmittedByAReplyThatCameAfterItsLeaseIsRejected() {
        long s = 1_000_000_000L; // lease and slack are in ns
        List<CallRecord> calls = List.of(answered("c0", 0, 0, 4 * s, 200, "exec-1", false, null));
        Ledger.Execution late =
                new Ledger.Execution(1, "c0", "p0", 0, 3 * s, 4 * s, "ok", false, Long.MIN_VALUE, "exec-1");
        assertThat(Oracle.judge(MVC_REQUEST_ID, "p", calls, List.of(late), List.of(), Oracle.ANY_FAULT))
                .singleElement()
                .asString()
                .contains("confirmed after its lease had run out");
        // Never held, but it started within a lease and the slack of its call: its lease may have run out as it began.
        Ledger.Execution justInTime =
                new Ledger.Execution(1, "c0", "p0", 0, 2 * s + s / 2, 4 * s, "ok", false, Long.MIN_VALUE, "exec-1");
        assertThat(Oracle.judge(MVC_REQUEST_ID, "p", calls, List.of(justInTime), List.of(), Oracle.ANY_FAULT))
                .isEmpty();
        Ledger.Execution held = new Ledger.Execution(1, "c0", "p0", 0, 3 * s, 4 * s, "ok", false, 3 * s, "exec-1");
        assertThat(Oracle.judge(MVC_REQUEST_ID, "p", calls, List.of(held), List.of(), Oracle.ANY_FAULT))
                .isEmpty();
    }

    @Test
    void aLock200WithoutItsWorkIsRejected() {
        List<CallRecord> calls = List.of(own("c0", 200, "exec-1"), replay("c1", 200, "exec-1"));
        assertThat(judge(MVC_LOCK, calls, C0_OK)).singleElement().asString().contains("means its work ran");
    }

    @Test
    void aTokenRunsAtMostOnce() {
        Ledger.Execution again = run("c1", 0, 60, 80, "ok", "exec-2");
        List<CallRecord> calls =
                List.of(own("c0", 200, "exec-1"), answered("c1", 0, 55, 90, 200, "exec-2", false, null));
        assertThat(judge(MVC_TOKEN, calls, C0_OK, again))
                .singleElement()
                .asString()
                .contains("used the token up");
        CallRecord used = answered("c1", 0, 55, 60, 409, "", false, "token-used");
        assertThat(judge(MVC_TOKEN, List.of(own("c0", 200, "exec-1"), used), C0_OK))
                .isEmpty();
    }

    @Test
    void a503WithAnExecutionIsRejected() {
        assertThat(judge(MVC_REQUEST_ID, List.of(answered("c0", 0, 0, 60, 503, "", false, "store-unavailable")), C0_OK))
                .singleElement()
                .asString()
                .contains("503");
        assertThat(judge(MVC_REQUEST_ID, List.of(answered("c0", 0, 0, 60, 503, "", false, "store-unavailable"))))
                .isEmpty();
    }

    @Test
    void everyRecordRunsOnceOrIsSkippedAsADuplicate() {
        CallRecord skipped = new CallRecord("c1", 0, MAIN, 5, 100, 200, "exec-1", false, null, false, false);
        CallRecord lost = new CallRecord("c1", 0, MAIN, 5, 100, CallRecord.NONE, "", false, null, false, false);
        CallRecord first = new CallRecord("c0", 0, MAIN, 0, 100, 200, "exec-1", false, null, false, false);
        assertThat(judge(KAFKA, List.of(first, skipped), C0_OK)).isEmpty();
        assertThat(judge(KAFKA, List.of(first, lost), C0_OK))
                .singleElement()
                .asString()
                .contains("neither ran");
    }

    /**
     * A record with another payload that meets a run holding the key is refused as a mismatch (422), even when that run
     * then fails and keeps nothing; one that comes after every other payload's run ended had to run. Kept from
     * {@code kafkaRecordRequestId} on main, 2026-12-03.
     */
    @Test
    void aRecordWithAnotherPayloadIsDroppedOnlyWhileAnotherPayloadHeldTheKey() {
        Ledger.Execution failing = run("c0", 0, 10, 50, "throw", "");
        CallRecord first = new CallRecord("c0", 0, MAIN, 0, 60, CallRecord.NONE, "", false, null, false, false);
        CallRecord meanwhile = new CallRecord("c1", 0, OTHER, 20, 30, CallRecord.NONE, "", false, null, false, false);
        CallRecord after = new CallRecord("c1", 0, OTHER, 70, 80, CallRecord.NONE, "", false, null, false, false);
        assertThat(judge(KAFKA, List.of(first, meanwhile), failing)).isEmpty();
        assertThat(judge(KAFKA, List.of(first, after), failing))
                .singleElement()
                .asString()
                .contains("neither ran");
    }

    /**
     * A {@code TOKEN} record runs, or is refused without a reply because another record used its token: one kept, or
     * running when it was sent. A run that failed gave the token back, so a record sent after it had to run; and a
     * token is never replayed.
     */
    @Test
    void aTokenRecordRunsOrMeetsItsTokenUsedByAnother() {
        CallRecord first = new CallRecord("c0", 0, MAIN, 0, 5, 200, "exec-1", false, null, false, false);
        CallRecord refused = new CallRecord("c1", 0, MAIN, 60, 65, CallRecord.NONE, "", false, null, false, false);
        CallRecord replayed = new CallRecord("c1", 0, MAIN, 60, 65, 200, "exec-1", false, null, false, false);
        assertThat(judge(KAFKA_TOKEN, List.of(first, refused), C0_OK)).isEmpty();
        assertThat(judge(KAFKA_TOKEN, List.of(first, replayed), C0_OK))
                .singleElement()
                .asString()
                .contains("a token is never replayed");

        Ledger.Execution failing = run("c0", 0, 10, 50, "throw", "");
        CallRecord failed = new CallRecord("c0", 0, MAIN, 0, 5, CallRecord.NONE, "", false, null, false, false);
        CallRecord meanwhile = new CallRecord("c1", 0, MAIN, 20, 25, CallRecord.NONE, "", false, null, false, false);
        assertThat(judge(KAFKA_TOKEN, List.of(failed, meanwhile), failing)).isEmpty();
        assertThat(judge(KAFKA_TOKEN, List.of(failed, refused), failing))
                .singleElement()
                .asString()
                .contains("never ran");
    }

    /**
     * A client that waits its whole patience and gets no answer: the application hung on its call, as a WebFlux
     * handler that threw once did (its response never written). Rejected, naming the call, unless a fault stopped
     * answers (the application's JVM killed); not judged for a client that left early, nor for a connection that broke
     * first (the application ended the exchange).
     */
    @Test
    void aWaitingCallWithoutAnAnswerIsRejectedUnlessAFaultStoppedAnswers() {
        long patience = CallRecord.PATIENCE.toNanos(); // this rule compares with the patience: times in ns here
        Ledger.Execution threw = run("c0", 0, 10, 50, "throw", "");
        CallRecord hung =
                new CallRecord("c0", 0, MAIN, 0, patience + 5, CallRecord.NONE, "", false, null, false, false);
        assertThat(judge(MVC_REQUEST_ID, List.of(hung), threw))
                .singleElement()
                .asString()
                .startsWith("liveness: c0 k0 no answer")
                .contains("waited 20 s and got no answer");
        assertThat(Oracle.judge(MVC_REQUEST_ID, "p", List.of(hung), List.of(threw), List.of(), faults(Kind.APP_KILLED)))
                .isEmpty();
        assertThat(Oracle.judge(MVC_REQUEST_ID, "p", List.of(hung), List.of(threw), List.of(), faults(Kind.KILL)))
                .as("Redis killed: the library answers 503 at once, it never holds a call")
                .singleElement()
                .asString()
                .startsWith("liveness: c0");
        CallRecord left = new CallRecord("c0", 0, MAIN, 0, patience + 5, CallRecord.NONE, "", false, null, true, false);
        assertThat(judge(MVC_REQUEST_ID, List.of(left), threw)).isEmpty();
        CallRecord broken = new CallRecord("c0", 0, MAIN, 0, 60, CallRecord.NONE, "", false, null, false, false);
        assertThat(judge(MVC_REQUEST_ID, List.of(broken), threw)).isEmpty();
        CallRecord lastHung =
                new CallRecord("c0-last", 0, MAIN, 0, patience, CallRecord.NONE, "", false, null, false, true);
        assertThat(judge(MVC_REQUEST_ID, List.of(lastHung)))
                .singleElement()
                .asString()
                .contains("c0-last k0 no answer (the last call of its key)");
    }

    private static Set<Kind> faults(Kind kind) {
        return EnumSet.of(kind);
    }

    private static List<String> judge(PathContract contract, List<CallRecord> calls, Ledger.Execution... runs) {
        return Oracle.judge(contract, "p", calls, List.of(runs), List.of(), Set.of());
    }

    private static Ledger.Execution run(String call, int key, long start, long end, String outcome, String answer) {
        return new Ledger.Execution(start, call, "p" + key, 0, start, end, outcome, true, Long.MAX_VALUE, answer);
    }

    /** The call that ran {@link #C0_OK}: sent at 0, answered at 60. */
    private static CallRecord own(String id, int status, String body) {
        return answered(id, 0, 0, 60, status, body, false, null);
    }

    private static CallRecord replay(String id, int status, String body) {
        return answered(id, 0, 60, 70, status, body, true, null);
    }

    private static CallRecord answered(
            String id,
            int key,
            long invoked,
            long completed,
            int status,
            String body,
            boolean replayed,
            @Nullable String problem) {
        return new CallRecord(id, key, MAIN, invoked, completed, status, body, replayed, problem, false, false);
    }
}

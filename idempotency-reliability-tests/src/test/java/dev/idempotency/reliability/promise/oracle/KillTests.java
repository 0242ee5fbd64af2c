package dev.idempotency.reliability.promise.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.reliability.promise.Guard;
import dev.idempotency.reliability.promise.Ledger;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What an application JVM killed at 100 left, judged by the oracle's own rules ({@link Kill#judged}), on hand-made
 * histories of key {@code p0}: times in ms, the kill at {@link #AT}; a new JVM runs the calls after it.
 */
class KillTests {

    private static final long AT = 100;
    private static final PathContract MVC = PathContract.of("mvc-sync", Guard.REQUEST_ID);

    /** c0's work started at 10 in the killed JVM and never ended. */
    private static final Ledger.Started C0_CUT_SHORT = new Ledger.Started(1, "c0", "p0", 0, 10, null);

    private static final CallRecord C0_NO_ANSWER = call("c0", 0, AT, CallRecord.NONE, "", false);

    /** The last call, after the kill, ran in the new JVM: 210 to 250. */
    private static final Ledger.Execution C9_RAN = run(9, "c9", 210, 250, "exec-9");

    private static final CallRecord C9_OWN = call("c9", 200, 260, 200, "exec-9", false);

    @Test
    void aRunAfterTheKillOfAnExecutionCutShortIsAccepted() {
        Kill kill = new Kill(AT, List.of(C0_CUT_SHORT), Set.of());
        assertThat(judge(List.of(C0_NO_ANSWER, C9_OWN), List.of(C9_RAN), kill)).isEmpty();
    }

    @Test
    void aRunBesideAnExecutionCutShortIsRejected() {
        Ledger.Execution beside = run(2, "c1", 50, 80, "exec-2");
        CallRecord c1 = call("c1", 40, 90, 200, "exec-2", false);
        Kill kill = new Kill(AT, List.of(C0_CUT_SHORT), Set.of(2L));
        assertThat(judge(List.of(C0_NO_ANSWER, c1), List.of(beside), kill))
                .singleElement()
                .asString()
                .contains("once: c1 ran on p0 while c0 still ran");
    }

    /** Its answer reached no one: it may have died before the library stored it, and its claim lapsed. */
    @Test
    void aRunAfterAKeptExecutionWhoseAnswerNoClientReceivedIsAccepted() {
        Ledger.Execution ended = run(1, "c0", 10, 50, "exec-1");
        Kill kill = new Kill(AT, List.of(), Set.of(1L));
        assertThat(judge(List.of(C0_NO_ANSWER, C9_OWN), List.of(ended, C9_RAN), kill))
                .isEmpty();
    }

    /** Its answer reached its own client, or another one as a replay: it was stored, so the key was done. */
    @Test
    void aRunAfterAKeptExecutionWhoseAnswerAClientReceivedIsRejected() {
        Ledger.Execution ended = run(1, "c0", 10, 50, "exec-1");
        Kill kill = new Kill(AT, List.of(), Set.of(1L));
        CallRecord received = call("c0", 0, 60, 200, "exec-1", false);
        assertThat(judge(List.of(received, C9_OWN), List.of(ended, C9_RAN), kill))
                .singleElement()
                .asString()
                .contains("once: c9 ran p0 again after c0 was kept");
        CallRecord replayed = call("c1", 150, 170, 200, "exec-1", true);
        assertThat(judge(List.of(C0_NO_ANSWER, replayed, C9_OWN), List.of(ended, C9_RAN), kill))
                .singleElement()
                .asString()
                .contains("once: c9 ran p0 again after c0 was kept");
    }

    private static List<String> judge(List<CallRecord> calls, List<Ledger.Execution> runs, Kill kill) {
        return Oracle.judge(MVC, "p", calls, Kill.judged(runs, List.of(kill), calls, "p"), List.of(), Oracle.ANY_FAULT);
    }

    private static Ledger.Execution run(long id, String call, long start, long end, String answer) {
        return new Ledger.Execution(id, call, "p0", 0, start, end, "ok", true, Long.MAX_VALUE, answer);
    }

    private static CallRecord call(String id, long invoked, long completed, int status, String body, boolean replay) {
        return new CallRecord(id, 0, "main", invoked, completed, status, body, replay, null, false, false);
    }
}

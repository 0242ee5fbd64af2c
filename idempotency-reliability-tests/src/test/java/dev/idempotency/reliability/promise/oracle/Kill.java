package dev.idempotency.reliability.promise.oracle;

import dev.idempotency.reliability.promise.Ledger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An application JVM killed with SIGKILL: when ({@link System#nanoTime()}, read once it was dead, so that every
 * execution of that JVM started before), the executions it started and never ended, and the ids of those it ended.
 * {@link #judged} turns what it left into runs the oracle's rules already judge; there is no rule of its own.
 *
 * @param at after the JVM's death
 * @param notEnded its executions that started and never ended: cut short by the kill
 * @param ended the ids of its executions that ended
 */
public record Kill(long at, List<Ledger.Started> notEnded, Set<Long> ended) {

    /** The outcome of an execution the kill cut short: not kept by any contract (it answered no one). */
    public static final String KILLED = "killed";

    /**
     * The runs of a history (keys {@code keyPrefix + number}) as the oracle judges them, after {@code kills}:
     *
     * <ul>
     *   <li>An execution the kill cut short may have had effects: it is a run that ended at the kill, with an outcome
     *       no contract keeps, its lease known held until the kill and lost then (its claim lapses with its lease
     *       afterwards: the documented limit, scenario 5). So a run of its key that started before the kill ran beside
     *       it (the rule {@code once}), and one that started after it is excused ({@link Oracle#excused}; no loss
     *       report is due, as it did not run on).
     *   <li>An execution that ended in the killed JVM, but whose answer no client received (neither its own client
     *       nor a replay), may have died before the library stored that answer: judged as a run whose lease was lost at
     *       the kill (or when it knew it lost earlier), so a later run is excused too, and a replay of its answer still
     *       counts as the kept answer ({@link KeyModel#keptAnswering}).
     *   <li>An execution whose answer some client received was stored first (the library stores, then answers): it
     *       stays as it ended, kept, and a run of its key after it breaks {@code once}.
     * </ul>
     */
    public static List<Ledger.Execution> judged(
            List<Ledger.Execution> runs, List<Kill> kills, List<CallRecord> calls, String keyPrefix) {
        Set<String> received = calls.stream()
                .filter(call -> call.status() != CallRecord.NONE)
                .map(CallRecord::body)
                .collect(Collectors.toSet());
        List<Ledger.Execution> judged = new ArrayList<>();
        for (Ledger.Execution run : runs) {
            Kill kill = kills.stream()
                    .filter(k -> k.ended().contains(run.id()))
                    .findFirst()
                    .orElse(null);
            judged.add(kill == null || received.contains(run.answer()) ? run : lostAt(run, kill.at()));
        }
        for (Kill kill : kills) {
            kill.notEnded().stream()
                    .filter(started -> started.key().startsWith(keyPrefix))
                    .map(started -> cutShort(started, kill.at()))
                    .forEach(judged::add);
        }
        return judged;
    }

    /** {@code started}, ended at the kill {@code at} without an answer, its lease known held until then. */
    private static Ledger.Execution cutShort(Ledger.Started started, long at) {
        return new Ledger.Execution(
                started.id(),
                started.call(),
                started.key(),
                started.fence(),
                started.start(),
                at,
                KILLED,
                false,
                at,
                "");
    }

    /**
     * {@code run}, its lease lost at the kill {@code at} at the latest: a run that knew its lease lost earlier, or never
     * held it ({@link KeyModel#startedAfterItsLease}), keeps what it knew.
     */
    private static Ledger.Execution lostAt(Ledger.Execution run, long at) {
        return new Ledger.Execution(
                run.id(),
                run.call(),
                run.key(),
                run.fence(),
                run.start(),
                run.end(),
                run.outcome(),
                false,
                Math.min(run.heldUntil(), at),
                run.answer());
    }
}

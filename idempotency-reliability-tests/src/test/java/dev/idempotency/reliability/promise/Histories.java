package dev.idempotency.reliability.promise;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * The arbitraries histories are drawn from: every field is jqwik's own, so that a failing history shrinks field by
 * field (fewer calls, earlier, on key 0, waiting; the fault gone or shorter; work that succeeds, shorter; the usual
 * thread pool). 1 to 7 calls on up to 3 keys, sent within 400 ms; each key's work succeeds (half the time), returns a
 * 4xx or a 5xx, or throws, and is short (under 200 ms) or outlasts Spring MVC's async timeout (400 ms here), the lock
 * wait (300 ms) and a lease renewal (at a third of the 2 s lease); a third of the histories inject a fault at 0 to
 * 300 ms for 100 to 1000 ms.
 */
final class Histories {

    static final int KEYS = 3;

    /** Faults of the durable backend: Redis stopped, killed and restarted, its replies dropped. */
    static final List<History.Fault.Kind> DURABLE_FAULTS =
            List.of(History.Fault.Kind.SIGSTOP, History.Fault.Kind.KILL, History.Fault.Kind.DROP_REPLIES);

    /**
     * Faults of the replicated backend: the replica frozen under {@code wait-for-replicas}, or cut off from the
     * master's writes and then promoted (a failover that loses every write since the cut).
     */
    static final List<History.Fault.Kind> REPLICA_FAULTS =
            List.of(History.Fault.Kind.REPLICA_FROZEN, History.Fault.Kind.FAILOVER);

    /** The endings of every path. */
    static final List<History.Ending> ENDINGS = List.of(
            History.Ending.WAITS, History.Ending.DISCONNECTS, History.Ending.TIMES_OUT, History.Ending.OTHER_PAYLOAD);

    /** The work outcomes of every path. */
    static final List<String> OUTCOMES = List.of("ok", "4xx", "5xx", "throw");

    /** Where answers are large or cannot be rendered ({@link RenderPaths}), a client may also read slowly. */
    static final List<History.Ending> RENDER_ENDINGS = List.of(
            History.Ending.WAITS,
            History.Ending.DISCONNECTS,
            History.Ending.TIMES_OUT,
            History.Ending.OTHER_PAYLOAD,
            History.Ending.READS_SLOWLY);

    /** The work outcomes of the rendering path: the usual ones, and answers that fail to render or are large. */
    static final List<String> RENDER_OUTCOMES =
            List.of("ok", "4xx", "5xx", "throw", "unrenderable", "large", "oversize");

    private Histories() {}

    /** Histories with a fault of {@code faults}, on one request thread in a third of them when {@code oneThread}. */
    static Arbitrary<History> histories(List<History.Fault.Kind> faults, boolean oneThread) {
        return histories(faults, oneThread, ENDINGS, OUTCOMES);
    }

    /** The same, with calls ending one of {@code endings} and work ending one of {@code outcomes}. */
    static Arbitrary<History> histories(
            List<History.Fault.Kind> faults, boolean oneThread, List<History.Ending> endings, List<String> outcomes) {
        return Combinators.combine(
                        calls(endings),
                        work(outcomes).list().ofSize(KEYS),
                        fault(faults),
                        oneThread
                                ? Arbitraries.integers().between(0, 2).map(third -> third == 2)
                                : Arbitraries.just(false))
                .as(History::new);
    }

    static Arbitrary<List<History.Call>> calls() {
        return calls(ENDINGS);
    }

    static Arbitrary<List<History.Call>> calls(List<History.Ending> endings) {
        return calls(endings, Arbitraries.integers().between(0, 399));
    }

    /** 1 to 7 calls, each sent at {@code at} ms and ending one of {@code endings}. */
    private static Arbitrary<List<History.Call>> calls(List<History.Ending> endings, Arbitrary<Integer> at) {
        return Combinators.combine(
                        Arbitraries.integers().between(0, KEYS - 1),
                        at,
                        Arbitraries.of(endings),
                        Arbitraries.integers().between(20, 319))
                .as(History.Call::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(7);
    }

    static Arbitrary<History.Work> work() {
        return work(OUTCOMES);
    }

    /** Work that succeeds ({@code ok}) half the time, or ends as one of the other {@code outcomes}. */
    static Arbitrary<History.Work> work(List<String> outcomes) {
        Arbitrary<Integer> millis = Arbitraries.oneOf(
                Arbitraries.integers().between(0, 199), Arbitraries.integers().between(300, 799));
        return work(outcomes, millis);
    }

    private static Arbitrary<History.Work> work(List<String> outcomes, Arbitrary<Integer> millis) {
        List<String> others = outcomes.subList(1, outcomes.size());
        Arbitrary<String> drawn = Arbitraries.frequencyOf(
                Tuple.of(others.size(), Arbitraries.just(outcomes.get(0))),
                Tuple.of(others.size(), Arbitraries.of(others)));
        return Combinators.combine(drawn, millis).as(History.Work::new);
    }

    static Arbitrary<History.Fault> fault(List<History.Fault.Kind> kinds) {
        return Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(History.Fault.NONE)),
                Tuple.of(1, fault(Arbitraries.of(kinds), 0, 100, 999)));
    }

    /** A fault of {@code kinds} from {@code firstAt} to {@code firstAt + 299} ms, for {@code shortest..longest} ms. */
    private static Arbitrary<History.Fault> fault(
            Arbitrary<History.Fault.Kind> kinds, int firstAt, int shortest, int longest) {
        return Combinators.combine(
                        kinds,
                        Arbitraries.integers().between(firstAt, firstAt + 299),
                        Arbitraries.integers().between(shortest, longest))
                .as(History.Fault::new);
    }

    /**
     * Two faults in one history, each of the durable backend's kinds, 0.1 to 1 s: the first from 0 to 300 ms, the
     * second from 0 to 300 ms after the first ended (a reconnect after a kill meets a stop, a retry of a lost reply
     * meets another loss); the rest as {@link #histories}.
     */
    static Arbitrary<History> twoFaults() {
        Arbitrary<History.Fault> fault = fault(Arbitraries.of(DURABLE_FAULTS), 0, 100, 999);
        return Combinators.combine(
                        calls(ENDINGS), work(OUTCOMES).list().ofSize(KEYS), fault, fault, Arbitraries.just(false))
                .as(History::new);
    }

    /** Histories that all fail over ({@code FAILOVER} at 0 to 300 ms, promoted 0.1 to 1 s later); the rest as usual. */
    static Arbitrary<History> failovers() {
        return Combinators.combine(
                        calls(ENDINGS),
                        work(OUTCOMES).list().ofSize(KEYS),
                        fault(Arbitraries.just(History.Fault.Kind.FAILOVER), 0, 100, 999),
                        Arbitraries.just(false))
                .as(History::new);
    }

    /**
     * Replies held past the lease ({@code HOLD_REPLIES} at 0 to 300 ms, for 3.6 to 4.4 s, on an application whose
     * command timeout outlasts it): half the calls are sent from 300 to 500 ms, when their claims or locks reach Redis
     * but the replies do not come back, so their leases run out there; the others from 2.6 to 3.6 s, when a call may
     * take such an expired key while the first caller's reply is still held. A permit confirmed after its lease must
     * not run its work; the first calls' replies come back at least 3.1 s after they were sent, late enough for the
     * oracle to tell such a run from one whose lease ran out as it started.
     */
    static Arbitrary<History> heldReplies() {
        return Combinators.combine(
                        calls(
                                ENDINGS,
                                Arbitraries.oneOf(
                                        Arbitraries.integers().between(300, 499),
                                        Arbitraries.integers().between(2600, 3599))),
                        work(OUTCOMES).list().ofSize(KEYS),
                        fault(Arbitraries.just(History.Fault.Kind.HOLD_REPLIES), 0, 3600, 4399),
                        Arbitraries.just(false))
                .as(History::new);
    }

    /**
     * Histories that all kill the application's JVM (a new one started 0.1 to 1 s later); the rest as usual. Every one
     * kills, so that a build's single try does. Half of them kill at 100 to 400 ms, after the first calls were sent,
     * while calls are still sent; the other half aim at a completion: 0 to 15 ms after the first call's work is due to
     * end, when its answer may not be stored yet (the one case where an execution that ended may still run again).
     */
    static Arbitrary<History> appKills() {
        Arbitrary<Integer> aim = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(-1)),
                Tuple.of(1, Arbitraries.integers().between(0, 15)));
        return Combinators.combine(
                        calls(ENDINGS),
                        work(OUTCOMES).list().ofSize(KEYS),
                        Arbitraries.integers().between(100, 399),
                        Arbitraries.integers().between(100, 999),
                        aim)
                .as((calls, works, at, span, past) -> {
                    History.Call first = calls.get(0);
                    int kill =
                            past < 0 ? at : first.at() + works.get(first.key()).millis() + past;
                    return new History(
                            calls, works, new History.Fault(History.Fault.Kind.APP_KILLED, kill, span), false);
                });
    }

    /**
     * The lease regime: the work of every key outlasts its 2 s lease (3 to 4.5 s), and every history stops Redis
     * (twice as often) or drops its replies for longer than the lease (2.1 to 2.6 s, from 400 to 700 ms, after the
     * first calls claimed their keys: half the calls are sent in the first 300 ms, the others from 2.4 to 4.2 s, when
     * Redis runs again and a lease has run out while its work still runs). The lease runs out unrenewed; a duplicate may then run
     * beside it, which the oracle excuses only after the loss, and only if the loss was reported.
     */
    static Arbitrary<History> leaseRegime() {
        Arbitrary<History.Fault.Kind> kinds = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(History.Fault.Kind.SIGSTOP)),
                Tuple.of(1, Arbitraries.just(History.Fault.Kind.DROP_REPLIES)));
        return Combinators.combine(
                        calls(
                                ENDINGS,
                                Arbitraries.oneOf(
                                        Arbitraries.integers().between(0, 299),
                                        Arbitraries.integers().between(2400, 4199))),
                        work(OUTCOMES, Arbitraries.integers().between(3000, 4499))
                                .list()
                                .ofSize(KEYS),
                        fault(kinds, 400, 2100, 2599),
                        Arbitraries.just(false))
                .as(History::new);
    }
}

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

    /** Faults of the replicated backend: the replica frozen under {@code wait-for-replicas}. */
    static final List<History.Fault.Kind> REPLICA_FAULTS = List.of(History.Fault.Kind.REPLICA_FROZEN);

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
        return Combinators.combine(
                        Arbitraries.integers().between(0, KEYS - 1),
                        Arbitraries.integers().between(0, 399),
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
        List<String> others = outcomes.subList(1, outcomes.size());
        Arbitrary<String> drawn = Arbitraries.frequencyOf(
                Tuple.of(others.size(), Arbitraries.just(outcomes.get(0))),
                Tuple.of(others.size(), Arbitraries.of(others)));
        Arbitrary<Integer> millis = Arbitraries.oneOf(
                Arbitraries.integers().between(0, 199), Arbitraries.integers().between(300, 799));
        return Combinators.combine(drawn, millis).as(History.Work::new);
    }

    static Arbitrary<History.Fault> fault(List<History.Fault.Kind> kinds) {
        Arbitrary<History.Fault> some = Combinators.combine(
                        Arbitraries.of(kinds),
                        Arbitraries.integers().between(0, 299),
                        Arbitraries.integers().between(100, 999))
                .as(History.Fault::new);
        return Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(History.Fault.NONE)), Tuple.of(1, some));
    }
}

package dev.idempotency.reliability.promise;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The generator of the promise checker's histories, alone (nothing is played, so it runs in every build in well under
 * a second): its histories must keep reaching what they are drawn for, or the build fails. What the properties
 * actually reach, measured on the played histories, is {@link PromiseStatistics}'.
 */
class HistoryCoverageTests {

    private static final int RENEWAL_MS = (int) Math.ceil(History.RENEWAL.toNanos() / 1e6); // 667

    @Provide
    net.jqwik.api.Arbitrary<History> histories() {
        return Histories.histories(Histories.DURABLE_FAULTS, true);
    }

    @Property(tries = 2000, edgeCases = EdgeCasesMode.NONE)
    void historiesReachWhatTheyAreDrawnFor(@ForAll("histories") History history) {
        History.Fault fault = history.fault();
        boolean faultOverAClaim = fault.span() > 0
                && history.calls().stream()
                        .anyMatch(call -> fault.at() <= call.at() && call.at() < fault.at() + fault.span());
        boolean faultOverARenewal = fault.span() > 0
                && history.calls().stream().anyMatch(call -> {
                    int renewal = call.at() + RENEWAL_MS;
                    return history.works().get(call.key()).millis() > RENEWAL_MS
                            && fault.at() <= renewal + 100
                            && renewal < fault.at() + fault.span();
                });
        Statistics.label("fault")
                .collect(fault.span() == 0 ? "none" : fault.kind().name());
        Statistics.label("fault over a planned claim").collect(faultOverAClaim);
        Statistics.label("fault over a planned renewal").collect(faultOverARenewal);
        Statistics.label("calls overlapping on one key").collect(overlapping(history));
        Statistics.label("one request thread").collect(history.oneThread());
        history.calls().forEach(call -> Statistics.label("ending").collect(call.ending()));
        history.calls()
                .forEach(call -> Statistics.label("work")
                        .collect(history.works().get(call.key()).outcome()));

        Statistics.label("fault").coverage(coverage -> {
            coverage.check("none").percentage(p -> p >= 50);
            for (History.Fault.Kind kind : Histories.DURABLE_FAULTS) {
                coverage.check(kind.name()).percentage(p -> p >= 5);
            }
        });
        Statistics.label("fault over a planned claim")
                .coverage(c -> c.check(true).percentage(p -> p >= 15));
        Statistics.label("fault over a planned renewal")
                .coverage(c -> c.check(true).percentage(p -> p > 0.1));
        Statistics.label("calls overlapping on one key")
                .coverage(c -> c.check(true).percentage(p -> p >= 30));
        Statistics.label("one request thread").coverage(c -> c.check(true).percentage(p -> p >= 20));
        Statistics.label("ending").coverage(coverage -> {
            for (History.Ending ending : Histories.ENDINGS) {
                coverage.check(ending).percentage(p -> p >= 15);
            }
        });
        Statistics.label("work").coverage(coverage -> {
            coverage.check("ok").percentage(p -> p >= 30);
            coverage.check("throw").percentage(p -> p >= 8);
            coverage.check("4xx").percentage(p -> p >= 8);
            coverage.check("5xx").percentage(p -> p >= 8);
        });
    }

    /** Two calls on one key, the second sent while the first's work would still run. */
    private static boolean overlapping(History history) {
        return history.calls().stream()
                .anyMatch(one -> history.calls().stream()
                        .anyMatch(other -> one != other
                                && one.key() == other.key()
                                && one.at() <= other.at()
                                && other.at()
                                        < one.at()
                                                + history.works().get(one.key()).millis()));
    }
}

package dev.idempotency.reliability.promise;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plays one {@link History} through a {@link Caller}: every call at its time and ending its way, the fault when the
 * history says, then one last call per key, repeated until it is no longer told "busy", to see that every key settles.
 */
final class HistoryRunner {

    private static final Duration SETTLE_DEADLINE = Duration.ofSeconds(15);

    /**
     * How long locks and claims may outlive the history: a lease (2 s: a claim or release that Redis ran after its
     * caller timed out, during a fault, expires with it), plus the longest work (0.8 s), plus slack for a loaded
     * machine.
     */
    private static final Duration QUIET_DEADLINE = Duration.ofSeconds(6);

    private static final AtomicInteger RUNS = new AtomicInteger();

    private final Backend backend;
    private final Ledger ledger;

    /** @param ledger the application's: a history is over when its work has ended too */
    HistoryRunner(Backend backend, Ledger ledger) {
        this.backend = backend;
        this.ledger = ledger;
    }

    /**
     * The keys of one run, unique to it, everything the clients saw, and what Redis still held one lease after the
     * history ({@code lingering}) and after the last calls ({@code left}).
     */
    record Played(String keyPrefix, List<Answer> answers, List<String> lingering, List<String> left) {

        String key(int key) {
            return keyPrefix + key;
        }
    }

    Played play(History history, Caller caller) throws Exception {
        String prefix = "r" + RUNS.incrementAndGet() + "-" + history.seed() + "-k";
        Set<Integer> keys = new TreeSet<>();
        history.calls().forEach(call -> keys.add(call.key()));
        caller.prepare(keys.stream().map(key -> prefix + key).toList());
        List<Answer> answers = new ArrayList<>();
        ScheduledExecutorService clients =
                Executors.newScheduledThreadPool(history.calls().size() + 1);
        History.Fault fault = history.fault();
        try {
            List<Future<Answer>> calls = new ArrayList<>();
            for (int i = 0; i < history.calls().size(); i++) {
                History.Call call = history.calls().get(i);
                String id = prefix + "-c" + i;
                Job job = history.job(call.key(), call.ending() == History.Ending.OTHER_PAYLOAD);
                calls.add(clients.schedule(
                        () -> caller.call(call, prefix + call.key(), job, id), call.at(), TimeUnit.MILLISECONDS));
            }
            if (fault.span() > 0) {
                clients.schedule(() -> backend.begin(fault.kind()), fault.at(), TimeUnit.MILLISECONDS)
                        .get(30, TimeUnit.SECONDS);
                clients.schedule(() -> backend.end(fault.kind()), fault.span(), TimeUnit.MILLISECONDS)
                        .get(30, TimeUnit.SECONDS);
            }
            for (Future<Answer> call : calls) {
                answers.add(call.get(30, TimeUnit.SECONDS));
            }
        } finally {
            backend.endFaults(); // whatever failed above, Redis runs again
            clients.shutdownNow();
        }
        caller.drain();
        List<String> lingering = quiet(prefix);
        for (int key : keys) {
            answers.add(settle(caller, prefix, history, key));
        }
        caller.drain();
        // The last calls' own stray claims (a claim Redis ran after its caller timed out) may outlive them by a lease.
        return new Played(prefix, caller.seen(answers), lingering, quiet(prefix));
    }

    /**
     * Waits (bounded) until the work of this run has ended and Redis holds no lock and no in-progress claim; returns
     * what Redis still holds then.
     */
    private List<String> quiet(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + QUIET_DEADLINE.toNanos();
        List<String> held = backend.leftovers();
        while ((!held.isEmpty() || working(prefix)) && System.nanoTime() - deadline < 0) {
            Thread.sleep(50);
            held = backend.leftovers();
        }
        return held;
    }

    private boolean answered(String key) {
        return ledger.ended().stream()
                .anyMatch(execution ->
                        execution.key().equals(key) && !execution.outcome().equals("throw"));
    }

    private boolean working(String prefix) {
        return ledger.running().stream().anyMatch(started -> started.key().startsWith(prefix));
    }

    /**
     * The last call of a key: repeated while the key is busy, or while its token is used though no submit ran to an
     * answer (a submit answered 503 gives its token back a moment later), until the deadline.
     */
    private Answer settle(Caller caller, String prefix, History history, int key) throws Exception {
        long deadline = System.nanoTime() + SETTLE_DEADLINE.toNanos();
        int attempt = 0;
        while (true) {
            String id = prefix + "-last" + key + "-" + attempt++;
            Answer answer = caller.last(key, prefix + key, history.job(key, false), id);
            boolean givenBackSoon = "token-used".equals(answer.problem()) && !answered(prefix + key);
            if (!answer.isBusy() && answer.status() != 503 && !givenBackSoon || System.nanoTime() - deadline > 0) {
                return answer;
            }
            Thread.sleep(100); // a client's back-off between retries
        }
    }
}

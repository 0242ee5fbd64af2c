package dev.idempotency.reliability.promise;

import dev.idempotency.reliability.promise.oracle.CallRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
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
     * caller timed out, during a fault, expires with it), plus the longest work (4.5 s, in the lease regime), plus
     * slack for a loaded machine.
     */
    private static final Duration QUIET_DEADLINE = Duration.ofSeconds(10);

    private static final AtomicInteger RUNS = new AtomicInteger();

    /** How long a fault may take to begin or end: a new application JVM ({@code APP_KILLED}) starts in seconds. */
    private static final Duration FAULT_DEADLINE = Duration.ofSeconds(120);

    private final Backend backend;
    private final LedgerView ledger;
    private final Faults faults;

    /**
     * @param ledger the application's: a history is over when its work has ended too
     * @param faults where the history's faults go: {@code backend}, or the application's JVM
     */
    HistoryRunner(Backend backend, LedgerView ledger, Faults faults) {
        this.backend = backend;
        this.ledger = ledger;
        this.faults = faults;
    }

    /**
     * The keys of one run, unique to it, everything the clients saw (as answers, and as timed records for the oracle),
     * when the history began ({@link System#nanoTime()}), what Redis still held one lease after the history
     * ({@code lingering}) and after the last calls ({@code left}), and the Redis keys a {@code FAILOVER} lost or
     * changed ({@code lostInFailover}).
     */
    record Played(
            String keyPrefix,
            List<Answer> answers,
            List<CallRecord> records,
            long began,
            List<String> lingering,
            List<String> left,
            Set<String> lostInFailover) {

        String key(int key) {
            return keyPrefix + key;
        }
    }

    Played play(History history, Caller caller) throws Exception {
        String prefix =
                "r" + RUNS.incrementAndGet() + "-" + ProcessHandle.current().pid() + "-k";
        Set<Integer> keys = new TreeSet<>();
        history.calls().forEach(call -> keys.add(call.key()));
        caller.prepare(keys.stream().map(key -> prefix + key).toList());
        List<SentCall> sent = new ArrayList<>();
        ScheduledExecutorService clients =
                Executors.newScheduledThreadPool(history.calls().size() + 1);
        History.Fault fault = history.fault();
        long began = System.nanoTime();
        try {
            List<Future<SentCall>> calls = new ArrayList<>();
            for (int i = 0; i < history.calls().size(); i++) {
                History.Call call = history.calls().get(i);
                String id = prefix + "-c" + i;
                Job job = history.job(call.key(), call.ending() == History.Ending.OTHER_PAYLOAD);
                calls.add(clients.schedule(
                        () -> SentCall.timed(
                                job, call.leavesEarly(), () -> caller.call(call, prefix + call.key(), job, id)),
                        call.at(),
                        TimeUnit.MILLISECONDS));
            }
            inject(clients, fault);
            inject(clients, history.then()); // from the end of the first
            for (Future<SentCall> call : calls) {
                sent.add(call.get(30, TimeUnit.SECONDS));
            }
        } finally {
            faults.endFaults(); // whatever failed above, Redis and the application run again
            clients.shutdownNow();
        }
        caller.drain();
        List<String> lingering = quiet(prefix);
        sent.addAll(settleAll(caller, prefix, history, keys));
        caller.drain();
        List<Answer> answers = caller.seen(sent.stream().map(SentCall::answer).toList());
        List<CallRecord> records = new ArrayList<>();
        for (int i = 0; i < answers.size(); i++) {
            records.add(sent.get(i).record(answers.get(i)));
        }
        // The last calls' own stray claims (a claim Redis ran after its caller timed out) may outlive them by a lease.
        return new Played(prefix, answers, records, began, lingering, quiet(prefix), backend.lostInFailover());
    }

    /** Begins {@code fault} {@code fault.at()} ms from now and ends it {@code fault.span()} ms later; none if 0. */
    private void inject(ScheduledExecutorService clients, History.Fault fault) throws Exception {
        if (fault.span() > 0) {
            clients.schedule(() -> faults.begin(fault.kind()), fault.at(), TimeUnit.MILLISECONDS)
                    .get(FAULT_DEADLINE.toSeconds(), TimeUnit.SECONDS);
            clients.schedule(() -> faults.end(fault.kind()), fault.span(), TimeUnit.MILLISECONDS)
                    .get(FAULT_DEADLINE.toSeconds(), TimeUnit.SECONDS);
        }
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
     * answer (a submit answered 503 gives its token back a moment later), until the deadline. Every attempt is a call
     * of the history; only the final one is {@code last}.
     */
    /**
     * The last calls of every key, in key order: sent for all keys at once where the caller allows it (each key
     * settles alone, so a key whose work is long does not hold the others back), else key after key.
     */
    private List<SentCall> settleAll(Caller caller, String prefix, History history, Set<Integer> keys)
            throws Exception {
        List<SentCall> sent = new ArrayList<>();
        if (!caller.lastCallsAtOnce()) {
            for (int key : keys) {
                settle(caller, prefix, history, key, sent);
            }
            return sent;
        }
        ExecutorService lastCalls = Executors.newFixedThreadPool(keys.size());
        try {
            List<Future<List<SentCall>>> ofKeys = new ArrayList<>();
            for (int key : keys) {
                ofKeys.add(lastCalls.submit(() -> {
                    List<SentCall> ofKey = new ArrayList<>();
                    settle(caller, prefix, history, key, ofKey);
                    return ofKey;
                }));
            }
            for (Future<List<SentCall>> ofKey : ofKeys) {
                sent.addAll(ofKey.get(SETTLE_DEADLINE.toSeconds() + 30, TimeUnit.SECONDS));
            }
        } finally {
            lastCalls.shutdownNow();
        }
        return sent;
    }

    private void settle(Caller caller, String prefix, History history, int key, List<SentCall> sent) throws Exception {
        long deadline = System.nanoTime() + SETTLE_DEADLINE.toNanos();
        for (int attempt = 0; ; attempt++) {
            String id = prefix + "-last" + key + "-" + attempt;
            Job job = history.job(key, false);
            int nth = attempt;
            SentCall last = SentCall.timed(job, false, () -> caller.last(key, nth, prefix + key, job, id));
            Answer answer = last.answer();
            boolean givenBackSoon = "token-used".equals(answer.problem()) && !answered(prefix + key);
            boolean done = !answer.isBusy() && answer.status() != 503 && !givenBackSoon;
            if (done || System.nanoTime() - deadline > 0) {
                sent.add(last);
                return;
            }
            sent.add(last.notLast());
            Thread.sleep(100); // a client's back-off between retries
        }
    }
}

package dev.idempotency.reliability.promise;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * One generated history: calls by several clients on a few keys of one entry path, each ending its own way, and at
 * most one fault. Made from a seed, so that {@code -Dpromise.seed=...} replays it; {@link #without} removes a
 * part, so that a failing history can be shrunk to the parts that matter.
 */
public record History(long seed, List<Call> calls, Fault fault, boolean oneThread) {

    /** How a caller ends its call. */
    public enum Ending {
        /** Waits for the answer. */
        WAITS,
        /** Disconnects {@code endAfter} ms after sending. */
        DISCONNECTS,
        /** Its client gives up after {@code endAfter} ms. */
        TIMES_OUT,
        /** Sends another payload with the same key, and waits. */
        OTHER_PAYLOAD
    }

    /**
     * One call.
     *
     * @param key which of the history's keys
     * @param at when it is sent, ms after the history starts (a retry is a later call with the same key)
     */
    public record Call(int key, int at, Ending ending, int endAfter) {

        @Override
        public String toString() {
            return "k" + key + "@" + at + "ms " + ending
                    + (ending == Ending.DISCONNECTS || ending == Ending.TIMES_OUT ? "+" + endAfter + "ms" : "");
        }
    }

    /** What goes wrong, from {@code at} for {@code span} ms; a span of 0 is no fault. */
    public record Fault(Kind kind, int at, int span) {

        /** The faults a history may draw. */
        public enum Kind {
            /** Redis stopped (SIGSTOP): commands time out, then it answers again. */
            SIGSTOP,
            /** Redis killed (SIGKILL) and restarted on its port, with every write it acknowledged (AOF). */
            KILL,
            /** Redis runs every command but its replies are lost on the way back; the connections then break. */
            DROP_REPLIES,
            /** The replica stopped (SIGSTOP), so that {@code wait-for-replicas} cannot be met. */
            REPLICA_FROZEN
        }

        static final Fault NONE = new Fault(Kind.SIGSTOP, 0, 0);

        @Override
        public String toString() {
            return span == 0 ? "none" : kind + "@" + at + "ms for " + span + "ms";
        }
    }

    static final String[] OUTCOMES = {"ok", "ok", "ok", "4xx", "5xx", "throw"};

    /**
     * The history of {@code seed}: 2 to 7 calls on 1 to 3 keys, the outcome and length of each key's work, in one of
     * three histories one of {@code faults} (none: no fault), maybe one request thread only.
     */
    static History random(long seed, List<Fault.Kind> faults, boolean mayUseOneThread) {
        Random random = new Random(seed);
        int keys = 1 + random.nextInt(3);
        List<Call> calls = new ArrayList<>();
        int count = 2 + random.nextInt(6);
        for (int i = 0; i < count; i++) {
            Ending ending = Ending.values()[random.nextInt(Ending.values().length)];
            calls.add(new Call(random.nextInt(keys), random.nextInt(400), ending, 20 + random.nextInt(300)));
        }
        Fault fault = !faults.isEmpty() && random.nextInt(3) == 0
                ? new Fault(faults.get(random.nextInt(faults.size())), random.nextInt(300), 100 + random.nextInt(900))
                : Fault.NONE;
        return new History(seed, List.copyOf(calls), fault, mayUseOneThread && random.nextInt(3) == 0);
    }

    /** The job a key's calls send: the same outcome and length for every call on the key, from the seed. */
    Job job(int key, boolean other) {
        Random random = new Random(seed * 31 + key);
        String outcome = OUTCOMES[random.nextInt(OUTCOMES.length)];
        // Half the work is short, half outlasts Spring MVC's async timeout (400 ms here) and the lock wait (300 ms).
        int millis = random.nextBoolean() ? random.nextInt(200) : 300 + random.nextInt(500);
        return new Job(other ? "other" : "main", outcome, millis);
    }

    /** This history without call {@code index} (or, for -1, without its fault; -2, on the usual thread pool). */
    History without(int index) {
        if (index == -1) {
            return new History(seed, calls, Fault.NONE, oneThread);
        }
        if (index == -2) {
            return new History(seed, calls, fault, false);
        }
        List<Call> fewer = new ArrayList<>(calls);
        fewer.remove(index);
        return new History(seed, List.copyOf(fewer), fault, oneThread);
    }

    @Override
    public String toString() {
        StringBuilder jobs = new StringBuilder();
        calls.stream()
                .mapToInt(Call::key)
                .distinct()
                .sorted()
                .forEach(key -> jobs.append(" k")
                        .append(key)
                        .append("=")
                        .append(job(key, false).outcome())
                        .append("/")
                        .append(job(key, false).millis())
                        .append("ms"));
        return "seed " + seed + ": calls ["
                + calls.stream().map(Call::toString).collect(Collectors.joining(", "))
                + "], work" + jobs + ", fault " + fault + (oneThread ? ", one request thread" : "");
    }
}

package dev.idempotency.reliability.promise;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One history: calls by several clients on a few keys of one entry path, each ending its own way, the work each key's
 * calls send, at most two faults, maybe one request thread only. Drawn by jqwik from {@link Histories}, so that every
 * field shrinks; written and read by {@link HistoryFile}, so that a shrunk history is kept and replayed.
 *
 * @param works the work of key {@code k} is {@code works.get(k)} (every call on a key sends the same work)
 * @param then a second fault, from {@code then.at()} ms after the first one ended; a span of 0 is none
 */
public record History(List<Call> calls, List<Work> works, Fault fault, Fault then, boolean oneThread) {

    /** The lease of the claims and locks of every history's application. */
    public static final Duration LEASE = Duration.ofSeconds(2);

    /** When the first renewal of a lease is due, after its work began: a third of the lease, as the starter renews. */
    public static final Duration RENEWAL = LEASE.dividedBy(3);

    /** A history with one fault at most. */
    public History(List<Call> calls, List<Work> works, Fault fault, boolean oneThread) {
        this(calls, works, fault, Fault.NONE, oneThread);
    }

    /** How a caller ends its call. */
    public enum Ending {
        /** Waits for the answer. */
        WAITS,
        /** Disconnects {@code endAfter} ms after sending. */
        DISCONNECTS,
        /** Its client gives up after {@code endAfter} ms. */
        TIMES_OUT,
        /** Sends another payload with the same key, and waits. */
        OTHER_PAYLOAD,
        /**
         * Reads the answer slowly (a small receive buffer, a pause between reads) and leaves (RST) {@code endAfter} ms
         * after sending, in the middle of a large download.
         */
        READS_SLOWLY
    }

    /**
     * One call.
     *
     * @param key which of the history's keys
     * @param at when it is sent, ms after the history starts (a retry is a later call with the same key)
     */
    public record Call(int key, int at, Ending ending, int endAfter) {

        boolean leavesEarly() {
            return ending == Ending.DISCONNECTS || ending == Ending.TIMES_OUT || ending == Ending.READS_SLOWLY;
        }

        @Override
        public String toString() {
            return "k" + key + "@" + at + "ms " + ending + (leavesEarly() ? "+" + endAfter + "ms" : "");
        }
    }

    /**
     * How a key's work ends ({@code ok}, {@code 4xx}, {@code 5xx}, {@code throw}; on the rendering path also
     * {@code unrenderable}, {@code large} and {@code oversize}: see {@link Work}) and how long it takes.
     */
    public record Work(String outcome, int millis) {

        @Override
        public String toString() {
            return outcome + "/" + millis + "ms";
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
            REPLICA_FROZEN,
            /**
             * The replica cut off from the master's writes, then promoted at the fault's end; the application goes to
             * it, and the old master, now its replica, drops what was not replicated ({@code FailoverPair}).
             */
            FAILOVER,
            /**
             * Another instance takes over the claims in progress in the JDBC store, as after this instance paused past
             * their lease, and stops at the fault's end ({@link OtherInstance}); Redis runs on.
             */
            TAKEN_OVER,
            /**
             * Redis runs every command, but its replies are held back until the fault's end, longer than the lease,
             * on an application whose command timeout outlasts the hold: a claim or lock confirmed after its lease
             * ran out, while another call may have taken the key (scenario 4e).
             */
            HOLD_REPLIES,
            /**
             * The application's JVM killed (SIGKILL) with calls in flight, and a new one started on the same port at
             * the fault's end ({@code ChildApp}); Redis runs on, with the dead JVM's claims until their lease lapses.
             */
            APP_KILLED
        }

        static final Fault NONE = new Fault(Kind.SIGSTOP, 0, 0);

        @Override
        public String toString() {
            return span == 0 ? "none" : kind + "@" + at + "ms for " + span + "ms";
        }
    }

    /** The job a key's calls send: its work, tagged {@code other} for a call that sends another payload. */
    Job job(int key, boolean other) {
        Work work = works.get(key);
        return new Job(other ? "other" : "main", work.outcome(), work.millis());
    }

    @Override
    public String toString() {
        String jobs = IntStream.range(0, works.size())
                .filter(key -> calls.stream().anyMatch(call -> call.key() == key))
                .mapToObj(key -> " k" + key + "=" + works.get(key))
                .collect(Collectors.joining());
        return "calls [" + calls.stream().map(Call::toString).collect(Collectors.joining(", ")) + "], work" + jobs
                + ", fault " + fault + (then.span() == 0 ? "" : ", then " + then + " after it")
                + (oneThread ? ", one request thread" : "");
    }
}

package dev.idempotency.reliability.promise.oracle;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One call as its client saw it: invoked at {@code invoked}, then, at {@code completed}, one of three endings (the
 * vocabulary of Jepsen-style histories): {@link Ending#OK} an answer, {@link Ending#FAIL} an answer that says nothing
 * ran (503), {@link Ending#INFO} no answer (the client timed out or disconnected: it cannot know).
 *
 * @param id the call's id, which the work records beside each execution
 * @param key the number of the history's key it was sent on
 * @param payload what it sent (stands for the payload digest: two calls on a key differ only by it)
 * @param invoked {@link System#nanoTime()} when it was sent
 * @param completed {@link System#nanoTime()} when its client saw the answer or gave up
 * @param clientLeft the client itself ended the call early (a disconnect or a timeout of its own)
 * @param last the last call of its key, sent after the history to see that the key settles
 */
public record CallRecord(
        String id,
        int key,
        String payload,
        long invoked,
        long completed,
        int status,
        String body,
        boolean replayed,
        @Nullable String problem,
        boolean clientLeft,
        boolean last) {

    /** The status of a call that got no answer. */
    public static final int NONE = -1;

    /**
     * How long a client that waits waits for its answer (an HTTP client's request timeout): far longer than any work
     * (4.5 s), fault (4.4 s) and command timeout (6 s) of a history: a call still without an answer after it hung.
     */
    public static final Duration PATIENCE = Duration.ofSeconds(20);

    /** How a call ended, as its client knows it. */
    public enum Ending {
        OK,
        FAIL,
        INFO
    }

    /**
     * An {@link Ending#INFO} call whose client waited its whole {@link #PATIENCE} (it did not leave early, and its
     * connection did not break first): the application kept the call open and never answered.
     */
    public boolean waitedOut() {
        return status == NONE && !clientLeft && completed - invoked >= PATIENCE.toNanos();
    }

    public Ending ending() {
        return status == NONE ? Ending.INFO : status == 503 ? Ending.FAIL : Ending.OK;
    }

    /** A 409 of this problem type. */
    public boolean conflict(String type) {
        return status == 409 && type.equals(problem);
    }

    @Override
    public String toString() {
        return id + " k" + key + " " + (status == NONE ? "no answer" : status + (problem == null ? "" : " " + problem))
                + (replayed ? " replayed" : "");
    }
}

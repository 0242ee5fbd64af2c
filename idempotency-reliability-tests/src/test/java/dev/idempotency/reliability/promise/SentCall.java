package dev.idempotency.reliability.promise;

import dev.idempotency.reliability.promise.oracle.CallRecord;
import java.util.concurrent.Callable;

/**
 * One call of a history as {@link HistoryRunner} sent it: its answer, its payload, when it was sent and over
 * ({@link System#nanoTime()}), and whether its client left early; the oracle's {@link CallRecord} once the answer is
 * as the client saw it in the end.
 */
record SentCall(Answer answer, String payload, long invoked, long completed, boolean clientLeft) {

    static SentCall timed(Job job, boolean clientLeft, Callable<Answer> call) throws Exception {
        long invoked = System.nanoTime();
        Answer answer = call.call();
        return new SentCall(answer, HttpCaller.json(job), invoked, System.nanoTime(), clientLeft);
    }

    SentCall notLast() {
        Answer a = answer;
        return new SentCall(
                new Answer(a.call(), a.key(), false, a.status(), a.body(), a.replayed(), a.problem()),
                payload,
                invoked,
                completed,
                clientLeft);
    }

    /** The record of this call, with {@code seen}: its answer as the client saw it in the end (a Kafka reply). */
    CallRecord record(Answer seen) {
        return new CallRecord(
                seen.call(),
                seen.key(),
                payload,
                invoked,
                completed,
                seen.status(),
                seen.body(),
                seen.replayed(),
                seen.problem(),
                clientLeft,
                seen.last());
    }
}

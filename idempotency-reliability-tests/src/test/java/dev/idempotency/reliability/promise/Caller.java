package dev.idempotency.reliability.promise;

import java.util.Collection;
import java.util.List;

/**
 * How the clients of one entry path call it: over HTTP ({@link HttpCaller}) or as Kafka records ({@link KafkaCaller}).
 * {@link HistoryRunner} decides when, and judges nothing.
 */
interface Caller {

    /** Before the history: whatever the calls on {@code keys} need (a token per key), while nothing fails. */
    default void prepare(Collection<String> keys) {}

    /** Sends {@code call} with {@code job} on {@code key} and ends it as the history says; what its client saw. */
    Answer call(History.Call call, String key, Job job, String id) throws Exception;

    /** The last call of key number {@code index}, its {@code attempt}-th (from 0): sent, and waited for. */
    Answer last(int index, int attempt, String key, Job job, String id) throws Exception;

    /** Whether the last calls of several keys may be sent at once (each on a thread of its own). */
    default boolean lastCallsAtOnce() {
        return false;
    }

    /** Waits (bounded) until the application has handled every call sent so far; HTTP calls are handled already. */
    default void drain() throws Exception {}

    /** What the clients saw in the end: calls whose answers come later (Kafka replies) are filled in. */
    default List<Answer> seen(List<Answer> answers) {
        return answers;
    }
}

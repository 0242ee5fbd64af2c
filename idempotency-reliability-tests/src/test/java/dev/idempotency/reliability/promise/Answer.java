package dev.idempotency.reliability.promise;

import org.jspecify.annotations.Nullable;

/**
 * What a client saw of one call: the status ({@link #NONE} when it went away first), the body, whether it was marked as
 * a replay, and the problem type of an error.
 */
record Answer(
        String call,
        int key,
        boolean last,
        int status,
        String body,
        boolean replayed,
        @Nullable String problem) {

    static final int NONE = -1;

    static Answer none(String call, int key) {
        return new Answer(call, key, false, NONE, "", false, null);
    }

    boolean isBusy() {
        return status == 409 && ("request-in-progress".equals(problem) || "lock-busy".equals(problem));
    }
}

package dev.idempotency.client;

/** How a covered call ended: the tag {@code outcome} of the counter {@code idempotency.client.requests}. */
enum CallOutcome {
    /** The first attempt gave the answer (whatever its status). */
    FIRST_TRY("first_try"),
    /** A later attempt gave the answer. */
    RETRIED("retried"),
    /** Every attempt failed in a retryable way; the caller got the last response or error. */
    EXHAUSTED("exhausted");

    private final String tag;

    CallOutcome(String tag) {
        this.tag = tag;
    }

    String tag() {
        return tag;
    }

    /** The outcome of a call that ended on attempt {@code attempts}, with a retryable failure or not. */
    static CallOutcome of(int attempts, boolean retryableFailure) {
        if (retryableFailure) {
            return EXHAUSTED;
        }
        return attempts == 1 ? FIRST_TRY : RETRIED;
    }
}

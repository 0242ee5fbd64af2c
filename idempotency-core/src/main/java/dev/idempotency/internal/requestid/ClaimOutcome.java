package dev.idempotency.internal.requestid;

/** What a claim found: this caller runs the work, replays a stored result, waits, or is told its payload differs. */
public sealed interface ClaimOutcome {

    /** The key was free and now belongs to the caller, who runs the work and then completes or releases the claim. */
    record Acquired(Claim claim) implements ClaimOutcome {}

    /**
     * The work completed before.
     *
     * @param result what it stored
     * @param value the whole record as read, to discard exactly this record if its result cannot be decoded
     */
    record Replay(byte[] result, byte[] value) implements ClaimOutcome {}

    /**
     * The work completed before, but its result was not kept (too large, or, with the JDBC store, lost when its owner
     * died after the work committed): nothing to replay, nothing to run.
     */
    record NotKept() implements ClaimOutcome {}

    /** Another execution holds the key and has not finished. */
    record InProgress() implements ClaimOutcome {}

    /** The key was used with a different payload. */
    record Mismatch() implements ClaimOutcome {}
}

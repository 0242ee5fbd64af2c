package dev.idempotency.requestid;

/** What a duplicate gets when the stored result of its key cannot be decoded (after a deploy changed its type). */
public enum UndecodableResults {

    /** An {@link dev.idempotency.UndecodableResultException}: the work ran once and is not run again. The default. */
    FAIL,

    /** The stored result is discarded and the work runs again: for work that is safe to repeat. */
    RERUN
}

package dev.idempotency.reliability.promise;

/**
 * Where {@link HistoryRunner} injects a history's faults: Redis and the stores ({@link Backend}), or the application's
 * JVM itself ({@link ChildApp}, which passes the other kinds on to its backend).
 */
interface Faults {

    /** Begins a fault of {@code kind}. */
    void begin(History.Fault.Kind kind);

    /** Ends it: whatever failed runs again. */
    void end(History.Fault.Kind kind);

    /** Ends the fault that may still be on (after a failure in the middle of a history). */
    void endFaults();
}

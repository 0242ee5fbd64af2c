package dev.idempotency.client;

/** Where the RestClient interceptor and the WebClient filter report how each covered call ended. */
@FunctionalInterface
interface CallOutcomes {

    /** Reports nothing: the application has no meter registry. */
    CallOutcomes NONE = outcome -> {};

    void record(CallOutcome outcome);
}

package dev.idempotency.reliability.promise;

/** Which strategy protects the work of a property; each entry path exposes the ones that apply to it. */
public enum Guard {
    REQUEST_ID("request-id"),
    TOKEN("token"),
    LOCK("lock");

    private final String segment;

    Guard(String segment) {
        this.segment = segment;
    }

    /** The path segment of the handlers this strategy protects, e.g. {@code /p/mvc-sync/token/{key}}. */
    public String segment() {
        return segment;
    }
}

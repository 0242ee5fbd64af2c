package dev.idempotency.internal.jdbc;

/**
 * The database's clock in the JDBC stores' SQL (PostgreSQL), in one place: every time to live and lease is decided by
 * the database server, never by the clocks of the application's instances, which may differ.
 */
public final class DatabaseClock {

    /** The current time, read anew by each call within a transaction (unlike {@code now()}). */
    public static final String NOW = "clock_timestamp()";

    /** {@link #NOW} plus a parameter's milliseconds. */
    public static final String LATER = NOW + " + ? * INTERVAL '1 millisecond'";

    private DatabaseClock() {}
}

package dev.idempotency.reliability.promise;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The fault {@link History.Fault.Kind#TAKEN_OVER}: another instance of the application takes over every claim in
 * progress in the JDBC store, writing what its takeover of an expired claim writes (its owner, a lease of its own), as
 * it would once this instance paused past the lease; at the fault's end it stops, and its claims lapse at once.
 * Exact: two statements on the database, no clock.
 */
final class OtherInstance {

    private static final String OWNER = "another-instance";

    private OtherInstance() {}

    static void takeOver() {
        jdbc().update(
                        "UPDATE idempotency_request SET owner = ?, expires_at = now() + interval '1 hour'"
                                + " WHERE state = 'P'",
                        OWNER);
    }

    static void stop() {
        jdbc().update("UPDATE idempotency_request SET expires_at = now() WHERE owner = ? AND state = 'P'", OWNER);
    }

    private static JdbcTemplate jdbc() {
        return new JdbcTemplate(PromiseApp.JdbcRecords.postgres());
    }
}

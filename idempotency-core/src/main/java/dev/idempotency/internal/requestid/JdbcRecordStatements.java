package dev.idempotency.internal.requestid;

import dev.idempotency.internal.jdbc.SqlDialect;

/**
 * The SQL of the JDBC record store on one table, in a database's {@link SqlDialect}. A row's {@code state}: {@code P} claimed and running,
 * {@code D} its work's transaction committed while the answer is still being made, {@code C} completed with the
 * answer, {@code N} completed without it. {@code expires_at} is the end of the lease ({@code P}) or of the record's
 * time to live (the others), after which the row may be taken over or purged; {@code lease_until} is the lease of a
 * {@code D} row, whose owner is presumed alive until then. A {@code D} row is never taken over before its time to live
 * ends: its work committed, so a retry must not run it again. An {@code UPDATE} assigns {@code state} last: MariaDB and
 * MySQL assign left to right, so a later assignment would see the new state.
 */
final class JdbcRecordStatements {

    /** Claims a free key ({@link SqlDialect#insertIfAbsent}): record key, owner, fingerprint, lease ms. */
    final String claim;

    /** What holds a key, without taking a lock: state, fingerprint, result, time up, lease of a D row up. */
    final String read;

    /** Claims a key whose time is up: owner, fingerprint, lease ms, record key. */
    final String takeOver;

    /** Marks the owner's claim committed (P to D): ttl ms, record key, owner. */
    final String markCommitted;

    /**
     * Completes the owner's record, or one whose time is up: state, fingerprint, result, ttl ms, record key, owner.
     */
    final String complete;

    /**
     * Completes a record that is not there ({@link SqlDialect#insertIfAbsent}), after {@link #complete} found none to
     * complete: record key, state, fingerprint, result, ttl ms.
     */
    final String completeMissing;

    /** Extends the owner's lease: lease ms, lease ms, record key, owner. */
    final String renew;

    /** Removes the owner's running claim: record key, owner. */
    final String release;

    /** Completes without an answer the owner's record whose work committed: record key, owner. */
    final String releaseCommitted;

    /** Removes a completed record if it still holds the result read: record key, result. */
    final String discard;

    /** Removes a record, whatever it holds: record key. */
    final String delete;

    /** The database's time now: the cutoff of a purge, read once for all its batches. */
    final String now;

    /** Removes up to a batch of records whose time was up at the cutoff ({@link SqlDialect#purge}). */
    final String purge;

    /** Reads no row, but every column: fails when the table is missing or differs. */
    final String probe;

    JdbcRecordStatements(SqlDialect dialect, String table) {
        String now = dialect.now();
        String later = dialect.later();
        this.claim = dialect.insertIfAbsent("INSERT INTO " + table
                + " (record_key, state, owner, fingerprint, expires_at) VALUES (?, 'P', ?, ?, " + later + ")");
        this.read = "SELECT state, fingerprint, result, expires_at <= " + now + ", lease_until <= " + now + " FROM "
                + table + " WHERE record_key = ?";
        this.takeOver = "UPDATE " + table + " SET owner = ?, fingerprint = ?, result = NULL, lease_until = NULL,"
                + " expires_at = " + later + ", state = 'P' WHERE record_key = ? AND expires_at <= " + now;
        this.markCommitted = "UPDATE " + table + " SET"
                + " lease_until = CASE WHEN state = 'P' THEN expires_at ELSE lease_until END,"
                + " expires_at = CASE WHEN state = 'P' THEN " + later + " ELSE expires_at END, state = 'D'"
                + " WHERE record_key = ? AND owner = ? AND state IN ('P', 'D')";
        this.complete = "UPDATE " + table + " SET state = ?, owner = NULL, fingerprint = ?, result = ?,"
                + " lease_until = NULL, expires_at = " + later + " WHERE record_key = ?"
                + " AND ((state IN ('P', 'D') AND owner = ?) OR (state <> 'D' AND expires_at <= " + now + "))";
        this.completeMissing = dialect.insertIfAbsent("INSERT INTO " + table
                + " (record_key, state, fingerprint, result, expires_at) VALUES (?, ?, ?, ?, " + later + ")");
        this.renew = "UPDATE " + table + " SET expires_at = CASE WHEN state = 'P' THEN " + later
                + " ELSE expires_at END, lease_until = CASE WHEN state = 'D' THEN " + later + " ELSE lease_until END"
                + " WHERE record_key = ? AND owner = ? AND state IN ('P', 'D')";
        this.release = "DELETE FROM " + table + " WHERE record_key = ? AND state = 'P' AND owner = ?";
        this.releaseCommitted = "UPDATE " + table + " SET owner = NULL, lease_until = NULL, state = 'N'"
                + " WHERE record_key = ? AND state = 'D' AND owner = ?";
        this.discard = "DELETE FROM " + table + " WHERE record_key = ? AND state = 'C' AND result = ?";
        this.delete = "DELETE FROM " + table + " WHERE record_key = ?";
        this.now = "SELECT " + now;
        this.purge = dialect.purge(table);
        this.probe = "SELECT record_key, state, owner, fingerprint, result, expires_at, lease_until FROM " + table
                + " WHERE 1 = 0";
    }
}

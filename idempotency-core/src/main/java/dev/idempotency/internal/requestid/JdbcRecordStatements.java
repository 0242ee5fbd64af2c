package dev.idempotency.internal.requestid;

import static dev.idempotency.internal.jdbc.DatabaseClock.LATER;
import static dev.idempotency.internal.jdbc.DatabaseClock.NOW;

/**
 * The SQL of the JDBC record store (PostgreSQL) on one table. A row's {@code state}: {@code P} claimed and running,
 * {@code D} its work's transaction committed while the answer is still being made, {@code C} completed with the
 * answer, {@code N} completed without it. {@code expires_at} is the end of the lease ({@code P}) or of the record's
 * time to live (the others), after which the row may be taken over or purged; {@code lease_until} is the lease of a
 * {@code D} row, whose owner is presumed alive until then. A {@code D} row is never taken over before its time to live
 * ends: its work committed, so a retry must not run it again.
 */
final class JdbcRecordStatements {

    /** Claims a free key: record key, owner, fingerprint, lease ms. */
    final String claim;

    /** What holds a key, without taking a lock: state, fingerprint, result, time up, lease of a D row up. */
    final String read;

    /** Claims a key whose time is up: owner, fingerprint, lease ms, record key. */
    final String takeOver;

    /** Marks the owner's claim committed (P to D): ttl ms, record key, owner. */
    final String markCommitted;

    /**
     * Completes the owner's record, or one whose time is up: record key, state, fingerprint, result, ttl ms, owner.
     */
    final String complete;

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

    /**
     * Removes up to a batch of records whose time was up at the cutoff: cutoff, batch size, cutoff. A row locked by
     * another transaction (being taken over, completed or marked committed) is skipped, and the expiry is checked again
     * on the row deleted, so a row made live meanwhile is never deleted. The cutoff is a parameter, not the volatile
     * {@code clock_timestamp()}, so that the index on {@code expires_at} serves the selection.
     */
    final String purge;

    /** Reads no row, but every column: fails when the table is missing or differs. */
    final String probe;

    JdbcRecordStatements(String table) {
        this.claim = "INSERT INTO " + table + " (record_key, state, owner, fingerprint, expires_at)"
                + " VALUES (?, 'P', ?, ?, " + LATER + ") ON CONFLICT (record_key) DO NOTHING";
        this.read = "SELECT state, fingerprint, result, expires_at <= " + NOW + ", lease_until <= " + NOW + " FROM "
                + table + " WHERE record_key = ?";
        this.takeOver = "UPDATE " + table + " SET state = 'P', owner = ?, fingerprint = ?, result = NULL,"
                + " lease_until = NULL, expires_at = " + LATER + " WHERE record_key = ? AND expires_at <= " + NOW;
        this.markCommitted = "UPDATE " + table + " SET state = 'D',"
                + " lease_until = CASE WHEN state = 'P' THEN expires_at ELSE lease_until END,"
                + " expires_at = CASE WHEN state = 'P' THEN " + LATER + " ELSE expires_at END"
                + " WHERE record_key = ? AND owner = ? AND state IN ('P', 'D')";
        this.complete = "INSERT INTO " + table + " AS r (record_key, state, fingerprint, result, expires_at)"
                + " VALUES (?, ?, ?, ?, " + LATER + ") ON CONFLICT (record_key) DO UPDATE SET state = EXCLUDED.state,"
                + " owner = NULL, fingerprint = EXCLUDED.fingerprint, result = EXCLUDED.result, lease_until = NULL,"
                + " expires_at = EXCLUDED.expires_at"
                + " WHERE (r.state IN ('P', 'D') AND r.owner = ?) OR (r.state <> 'D' AND r.expires_at <= " + NOW + ")";
        this.renew = "UPDATE " + table + " SET expires_at = CASE WHEN state = 'P' THEN " + LATER
                + " ELSE expires_at END, lease_until = CASE WHEN state = 'D' THEN " + LATER + " ELSE lease_until END"
                + " WHERE record_key = ? AND owner = ? AND state IN ('P', 'D')";
        this.release = "DELETE FROM " + table + " WHERE record_key = ? AND state = 'P' AND owner = ?";
        this.releaseCommitted = "UPDATE " + table + " SET state = 'N', owner = NULL, lease_until = NULL"
                + " WHERE record_key = ? AND state = 'D' AND owner = ?";
        this.discard = "DELETE FROM " + table + " WHERE record_key = ? AND state = 'C' AND result = ?";
        this.delete = "DELETE FROM " + table + " WHERE record_key = ?";
        this.now = "SELECT " + NOW;
        this.purge = "DELETE FROM " + table + " WHERE record_key IN (SELECT record_key FROM " + table
                + " WHERE expires_at <= ? LIMIT ? FOR UPDATE SKIP LOCKED) AND expires_at <= ?";
        this.probe = "SELECT record_key, state, owner, fingerprint, result, expires_at, lease_until FROM " + table
                + " WHERE 1 = 0";
    }
}

-- REQUEST_ID records and one-time tokens of the idempotency starter (idempotency.store: jdbc), PostgreSQL (tested on 14).
-- Run it with spring.sql.init (spring.sql.init.mode=always and
-- spring.sql.init.schema-locations=classpath:dev/idempotency/jdbc/schema-postgresql.sql), or through the shipped
-- migrations: the Flyway location classpath:db/idempotency/flyway/{vendor} (a repeatable copy of this script) or the
-- Liquibase changelog db/changelog/idempotency/idempotency-changelog.xml. Safe to run again.
--   state: P in progress (owner holds it until expires_at); D its work's transaction committed, the answer on its way
--          (owner presumed alive until lease_until); C completed with its answer; N completed without it
--          a token: V valid, U used (owner: the mark of the submit that used it)
--   expires_at: end of the lease (P) or of the record's or token's time to live; rows past it are purged on a schedule
CREATE TABLE IF NOT EXISTS idempotency_request (
    record_key  VARCHAR(512) PRIMARY KEY,
    state       CHAR(1) NOT NULL,
    owner       VARCHAR(64),
    fingerprint VARCHAR(64) NOT NULL,
    result      BYTEA,
    expires_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    lease_until TIMESTAMP WITH TIME ZONE
);
CREATE INDEX IF NOT EXISTS idempotency_request_expires_at ON idempotency_request (expires_at);

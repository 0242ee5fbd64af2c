-- REQUEST_ID records and one-time tokens of the idempotency starter (idempotency.store: jdbc), MariaDB (tested on 10.11;
-- 10.6 or later) and MySQL 8 (not tested). Run it with spring.sql.init (spring.sql.init.mode=always and
-- spring.sql.init.schema-locations=classpath:dev/idempotency/jdbc/schema-mariadb.sql), or through the shipped
-- migrations: the Flyway location classpath:db/idempotency/flyway/{vendor} (a repeatable copy of this script) or the
-- Liquibase changelog db/changelog/idempotency/idempotency-changelog.xml. Safe to run again.
--   state: P in progress (owner holds it until expires_at); D its work's transaction committed, the answer on its way
--          (owner presumed alive until lease_until); C completed with its answer; N completed without it
--          a token: V valid, U used (owner: the mark of the submit that used it)
--   expires_at: end of the lease (P) or of the record's or token's time to live, UTC; rows past it are purged on a
--          schedule
--   record_key and owner are bytes: compared exactly, as on PostgreSQL (a text collation would ignore case or
--          trailing spaces, and make two keys one); 2048 bytes hold the 512 characters of PostgreSQL's key in UTF-8
CREATE TABLE IF NOT EXISTS idempotency_request (
    record_key  VARBINARY(2048) NOT NULL PRIMARY KEY,
    state       CHAR(1) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    owner       VARBINARY(64),
    fingerprint VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    result      LONGBLOB,
    expires_at  DATETIME(6) NOT NULL,
    lease_until DATETIME(6),
    INDEX idempotency_request_expires_at (expires_at)
) ENGINE = InnoDB;

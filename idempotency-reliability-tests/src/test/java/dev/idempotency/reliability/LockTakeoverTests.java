package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.idempotency.LockBusyException;
import dev.idempotency.LockLostException;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.testsupport.Database;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Scenario 6: the lock holder's process keeps working but its connection stalls (the fault proxy holds every byte) for
 * longer than the lease, so its watchdog cannot renew; the lock expires and someone else takes it. Scenario 6b: what
 * the fencing token buys then, on a real downstream database.
 */
@ReliabilityTest
class LockTakeoverTests {

    private static final Duration LEASE = Duration.ofSeconds(1);

    @Test
    @Scenario(
            id = "6",
            title = "Lock holder stalled (its connection paused by the proxy) longer than its 1 s lease",
            expected = "the next holder gets a higher fencing token; the stale holder's release does not remove the"
                    + " new lock; the loss is reported (LockLostException + WARN log)")
    void stalledHolderLosesItsLockToAHigherFencingToken(RedisServer redis) {
        ReliabilityReport.redisVersion(redis.version());
        String prefix = "takeover:" + UUID.randomUUID() + ":";
        String resource = "account-1";
        try (FaultProxy proxy = FaultProxy.start(redis.host(), redis.port());
                CoreStack stalled = CoreStack.connect(proxy.host(), proxy.port(), Duration.ofMillis(300), prefix);
                CoreStack next = CoreStack.connect(redis.host(), redis.port(), Duration.ofMillis(500), prefix);
                RedisAdmin admin = new RedisAdmin(redis.host(), redis.port());
                LogCapture log =
                        new LogCapture(LeaseRenewer.class.getName(), "dev.idempotency.internal.lock.RedisLockHandle")) {
            String lockKey = stalled.keys.lock(resource);
            LockHandle stale = stalled.locks.acquire(resource, LEASE, Duration.ZERO);

            proxy.pause();
            boolean expired = Race.await(Duration.ofSeconds(10), 20, () -> !admin.exists(lockKey));
            LockHandle fresh = next.locks.acquire(resource, LEASE, Duration.ZERO);
            proxy.pass();

            boolean lossNoticed = Race.await(Duration.ofSeconds(10), 20, stale::isLost);
            Throwable staleRelease = catchThrowable(stale::close);
            boolean freshStillHeld = admin.exists(lockKey) && !fresh.isLost();
            Throwable third = catchThrowable(() -> stalled.locks.acquire(resource, LEASE, Duration.ZERO));
            Throwable freshRelease = catchThrowable(fresh::close);
            List<String> warnings = log.warnings();

            ReliabilityReport.measured(
                    "6",
                    "lease expired while stalled: " + expired + "; fencing token stale " + stale.fencingToken()
                            + " -> next " + fresh.fencingToken() + "; stale holder's watchdog noticed the loss: "
                            + lossNoticed + "; stale release threw " + name(staleRelease)
                            + "; new lock intact after it: " + freshStillHeld + " (a third caller got "
                            + name(third) + "); new holder released cleanly: " + (freshRelease == null)
                            + "; WARN logs: " + warnings);
            assertThat(expired).as("the stalled holder's lease ran out").isTrue();
            assertThat(fresh.fencingToken()).as("fencing token").isGreaterThan(stale.fencingToken());
            assertThat(lossNoticed)
                    .as("the watchdog marks the stale handle lost")
                    .isTrue();
            assertThat(staleRelease).as("stale release").isInstanceOf(LockLostException.class);
            assertThat(freshStillHeld)
                    .as("the new holder's lock survives the stale release")
                    .isTrue();
            assertThat(third).as("a third caller").isInstanceOf(LockBusyException.class);
            assertThat(freshRelease).as("the new holder releases normally").isNull();
            assertThat(warnings)
                    .as("WARN logs")
                    .anyMatch(line -> line.contains("expired while held"))
                    .anyMatch(line -> line.contains("lost before its release"));
        }
    }

    @Test
    @Scenario(
            id = "6b",
            title = "The stalled holder of scenario 6 writes after the next holder did: on a PostgreSQL table that"
                    + " checks the fencing token, and on one that does not",
            expected = "the table that checks the token takes the new holder's debit and rejects the stale one (one"
                    + " debit); the table that does not takes both (two debits): the lease alone cannot stop the"
                    + " overlap, the fencing token keeps it out of the data")
    void aDownstreamTableThatChecksTheFencingTokenRejectsTheStaleHoldersWrite(RedisServer redis) throws SQLException {
        String prefix = "fencing:" + UUID.randomUUID() + ":";
        String resource = "account-1";
        String suffix = UUID.randomUUID().toString().replace("-", "");
        try (FaultProxy proxy = FaultProxy.start(redis.host(), redis.port());
                CoreStack stalled = CoreStack.connect(proxy.host(), proxy.port(), Duration.ofMillis(300), prefix);
                CoreStack next = CoreStack.connect(redis.host(), redis.port(), Duration.ofMillis(500), prefix);
                RedisAdmin admin = new RedisAdmin(redis.host(), redis.port());
                Accounts fenced = Accounts.create("fenced_" + suffix, resource);
                Accounts unfenced = Accounts.create("unfenced_" + suffix, resource)) {
            LockHandle stale = stalled.locks.acquire(resource, LEASE, Duration.ZERO);
            proxy.pause(); // the stale holder's process stalls: its watchdog cannot renew, its work is not yet written
            boolean expired = Race.await(Duration.ofSeconds(10), 20, () -> !admin.exists(stalled.keys.lock(resource)));
            LockHandle fresh = next.locks.acquire(resource, LEASE, Duration.ZERO);
            boolean freshFenced = fenced.debitFenced(resource, 10, fresh.fencingToken());
            unfenced.debit(resource, 10);
            fresh.close();
            proxy.pass();
            // The stale holder resumes where it stalled, right before its write, and has not learnt of its loss.
            boolean staleFenced = fenced.debitFenced(resource, 10, stale.fencingToken());
            unfenced.debit(resource, 10);
            catchThrowable(stale::close);

            ReliabilityReport.measured(
                    "6b",
                    "lease expired while stalled: " + expired + "; fencing token stale " + stale.fencingToken()
                            + " < next " + fresh.fencingToken() + "; table checking the token: next holder's debit "
                            + (freshFenced ? "taken" : "rejected") + ", stale holder's "
                            + (staleFenced ? "taken" : "rejected") + ", balance 100 -> " + fenced.balance(resource)
                            + "; table not checking it: balance 100 -> " + unfenced.balance(resource));
            assertThat(expired).as("the stalled holder's lease ran out").isTrue();
            assertThat(freshFenced).as("the next holder's fenced debit").isTrue();
            assertThat(staleFenced).as("the stale holder's fenced debit").isFalse();
            assertThat(fenced.balance(resource))
                    .as("balance where the token is checked")
                    .isEqualTo(90);
            assertThat(unfenced.balance(resource))
                    .as("balance where it is not: both holders debited")
                    .isEqualTo(80);
        }
    }

    /**
     * A table of account balances in the test's PostgreSQL: the downstream system the lock holders write to. The fenced
     * write is the pattern the strategies guide shows: it takes a token only above the last one it took.
     */
    private record Accounts(Connection connection, String table) implements AutoCloseable {

        static Accounts create(String table, String account) throws SQLException {
            Connection connection = Database.POSTGRESQL.dataSource().getConnection();
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE " + table
                        + " (id text PRIMARY KEY, balance int NOT NULL, fencing_token bigint NOT NULL DEFAULT 0)");
                statement.execute("INSERT INTO " + table + " (id, balance) VALUES ('" + account + "', 100)");
            }
            return new Accounts(connection, table);
        }

        boolean debitFenced(String account, int amount, long fencingToken) throws SQLException {
            try (PreparedStatement update = connection.prepareStatement("UPDATE " + table
                    + " SET balance = balance - ?, fencing_token = ? WHERE id = ? AND fencing_token < ?")) {
                update.setInt(1, amount);
                update.setLong(2, fencingToken);
                update.setString(3, account);
                update.setLong(4, fencingToken);
                return update.executeUpdate() == 1;
            }
        }

        void debit(String account, int amount) throws SQLException {
            try (PreparedStatement update =
                    connection.prepareStatement("UPDATE " + table + " SET balance = balance - ? WHERE id = ?")) {
                update.setInt(1, amount);
                update.setString(2, account);
                update.executeUpdate();
            }
        }

        int balance(String account) throws SQLException {
            try (PreparedStatement query =
                    connection.prepareStatement("SELECT balance FROM " + table + " WHERE id = ?")) {
                query.setString(1, account);
                try (ResultSet row = query.executeQuery()) {
                    row.next();
                    return row.getInt(1);
                }
            }
        }

        @Override
        public void close() throws SQLException {
            try (connection;
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE " + table);
            }
        }
    }

    private static String name(Throwable thrown) {
        return thrown == null ? "nothing" : thrown.getClass().getSimpleName();
    }
}

package dev.idempotency.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.Futures;
import dev.idempotency.testsupport.CommandMonitor;
import dev.idempotency.testsupport.RealRedis;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.token.IssueQuota;
import dev.idempotency.token.TokenExecutor;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Holds the round-trip floor: first {@code REQUEST_ID} call 2 (claim + complete), duplicate 1, token issue (its quota
 * included) 1, token consume 1, lock acquire + release 2. Counted on the server with {@code MONITOR}; a script counts once.
 */
@RealRedis
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RoundTripTests {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private CommandMonitor monitor;
    private RedisIdempotency idempotency;
    private RequestIdExecutor executor;
    private TokenExecutor tokens;
    private LeaseLockManager locks;
    private RedisKeys keys;

    @BeforeAll
    void setUp(RedisServer server) throws Exception {
        idempotency = RedisIdempotency.builder(server.newConnectionFactory())
                .keyPrefix("idempotency:roundtrip:" + UUID.randomUUID() + ":")
                .build();
        executor = idempotency.requestIds();
        tokens = idempotency.tokens();
        locks = idempotency.locks();
        keys = idempotency.keys();
        monitor = new CommandMonitor(server.host(), server.port());
        warmUp(); // connects and loads every script once, so that the counts below are the steady state
    }

    @AfterAll
    void tearDown() throws Exception {
        monitor.close();
        idempotency.close();
    }

    @Test
    void requestIdFirstCallTakesTwoRoundTripsAndADuplicateOne() {
        RequestIdCall call = new RequestIdCall(keys.requestId("", "op", "k1"), null, MINUTE, MINUTE, Duration.ZERO);
        monitor.reset();
        executor.execute(call, () -> "result", ResultCodec.utf8());
        List<String> first = monitor.roundTrips();
        List<String> firstExecuted = monitor.executed();
        monitor.reset();
        executor.execute(call, () -> "again", ResultCodec.utf8());
        List<String> duplicate = monitor.roundTrips();
        List<String> duplicateExecuted = monitor.executed();
        report("request-id first", first, firstExecuted);
        report("request-id duplicate", duplicate, duplicateExecuted);
        assertThat(first).as("claim (SET NX GET on Redis 7) + complete").containsExactly("set", "evalsha");
        assertThat(duplicate).containsExactly("set");
    }

    @Test
    void tokenConsumeTakesOneRoundTrip() {
        String token = tokens.issue("", "submit", MINUTE).token();
        monitor.reset();
        tokens.consume("", "submit", token);
        List<String> consume = monitor.roundTrips();
        List<String> executed = monitor.executed();
        monitor.reset();
        try {
            tokens.consume("", "submit", token);
        } catch (TokenAlreadyUsedException expected) {
            // the replay is told apart in the same single round trip
        }
        report("token consume", consume, executed);
        assertThat(consume).as("the consume script, loaded before").containsExactly("evalsha");
        assertThat(monitor.roundTrips()).containsExactly("evalsha");
    }

    @Test
    void tokenIssueTakesOneRoundTripItsQuotaIncluded() {
        IssueQuota quota = idempotency.issueQuota(60, 6000, MINUTE);
        monitor.reset();
        Futures.join(tokens.issueAsync("", "submit", MINUTE, quota, "alice"));
        List<String> issue = monitor.roundTrips();
        report("token issue + quota", issue, monitor.executed());
        assertThat(issue)
                .as("the caller's count, the application's and the token in one script")
                .containsExactly("evalsha");
        assertThat(monitor.scriptCommands()).contains("incr", "set");
    }

    @Test
    void invalidTokenCostsNoRoundTrip() {
        monitor.reset();
        try {
            tokens.consume("", "submit", "forged token with spaces");
        } catch (RuntimeException expected) {
            // rejected in the JVM
        }
        assertThat(monitor.executed()).isEmpty();
    }

    @Test
    void lockAcquireAndReleaseTakeTwoRoundTrips() {
        monitor.reset();
        try (LockHandle ignored = locks.acquire("sku-1", MINUTE, Duration.ZERO)) {
            // held
        }
        List<String> trips = monitor.roundTrips();
        report("lock acquire + release", trips, monitor.executed());
        assertThat(trips).containsExactly("evalsha", "evalsha");
    }

    private void warmUp() {
        executor.execute(
                new RequestIdCall(keys.requestId("", "op", "warm"), null, MINUTE, MINUTE, Duration.ZERO),
                () -> "w",
                ResultCodec.utf8());
        tokens.consume("", "submit", tokens.issue("", "submit", MINUTE).token());
        Futures.join(tokens.issueAsync("", "submit", MINUTE, idempotency.issueQuota(60, 6000, MINUTE), "warm"));
        locks.acquire("warm", MINUTE, Duration.ZERO).close();
    }

    private static void report(String operation, List<String> roundTrips, List<String> executed) {
        System.out.printf(
                "[round-trips] %-24s round trips=%d %s, commands executed=%d %s%n",
                operation, roundTrips.size(), roundTrips, executed.size(), executed);
    }
}

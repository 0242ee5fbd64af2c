package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.LockBusyException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.token.IssuedToken;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scenario 4: Redis executes the command but its reply never reaches the client, on each step that decides whether work
 * runs. A reply is lost in two ways: the client times out first and the connection breaks later ("timeout"), or the
 * connection breaks right after Redis executed the command ("reset"; the in-flight command fails at once and Lettuce
 * reconnects). Retries go through the same instance, as a client's retry would.
 */
@ReliabilityTest
class LostReplyTests {

    private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(400);
    private static final Duration LEASE = Duration.ofSeconds(1);
    /** Retries of one case end within this, far beyond the lease. */
    private static final Duration RETRY_WINDOW = Duration.ofSeconds(6);

    private final String prefix = "lost-reply:" + UUID.randomUUID() + ":";
    private final AtomicInteger executions = new AtomicInteger();
    private FaultProxy proxy;
    private CoreStack app;

    @BeforeEach
    void start(RedisServer redis) {
        ReliabilityReport.redisVersion(redis.version());
        proxy = FaultProxy.start(redis.host(), redis.port());
        app = CoreStack.connect(proxy.host(), proxy.port(), COMMAND_TIMEOUT, prefix);
        warmUp();
    }

    @AfterEach
    void stop() {
        app.close();
        proxy.close();
    }

    @Test
    @Scenario(
            id = "4a",
            title = "Reply to the REQUEST_ID claim lost (client timeout; connection reset)",
            expected = "no duplicate execution; the caller gets 503 or 409, a retry gets 409 until the lease ends,"
                    + " then runs the work once")
    void lostClaimReply() {
        List<String> figures = new ArrayList<>();
        for (Loss loss : Loss.values()) {
            executions.set(0);
            String key = app.keys.requestId("", "op", "claim-" + loss);
            proxy.dropReplies(command -> isClaim(command, key), 1, loss.closeAfter);
            String first = execute(key);
            int afterFirst = executions.get();
            Retries retries = retryUntil(() -> execute(key), outcome -> outcome.equals("ran"));
            String replay = execute(key);
            figures.add(loss + ": first " + first + ", then " + retries + ", then " + replay + "; executions "
                    + executions.get() + "; claims Redis executed " + proxy.forwardedMatching(c -> isClaim(c, key)));
            assertThat(afterFirst)
                    .as("%s: the work must not run when the claim's reply is lost", loss)
                    .isZero();
            assertThat(first).as("%s: first attempt", loss).isIn("503", "409");
            assertThat(retries.last())
                    .as("%s: a retry runs the work after the lease", loss)
                    .isEqualTo("ran");
            assertThat(replay).isEqualTo("replay");
            assertThat(executions.get()).as("%s: executions", loss).isEqualTo(1);
        }
        ReliabilityReport.measured("4a", String.join("; ", figures));
    }

    @Test
    @Scenario(
            id = "4b",
            title = "Reply to the REQUEST_ID complete lost (client timeout; connection reset)",
            expected = "the caller gets its result; retries get the stored replay; executions 1")
    void lostCompleteReply() {
        List<String> figures = new ArrayList<>();
        for (Loss loss : Loss.values()) {
            executions.set(0);
            String key = app.keys.requestId("", "op", "complete-" + loss);
            proxy.dropReplies(command -> isComplete(command, key), 1, loss.closeAfter);
            String first = execute(key);
            Retries retries = retryUntil(() -> execute(key), outcome -> outcome.equals("replay"));
            figures.add(loss + ": first " + first + ", then " + retries + "; executions " + executions.get()
                    + "; completes Redis executed " + proxy.forwardedMatching(c -> isComplete(c, key)));
            assertThat(first)
                    .as("%s: the work ran and its caller got the result", loss)
                    .isEqualTo("ran");
            assertThat(retries.last())
                    .as("%s: the completed record is replayed", loss)
                    .isEqualTo("replay");
            assertThat(executions.get()).as("%s: executions", loss).isEqualTo(1);
        }
        ReliabilityReport.measured("4b", String.join("; ", figures));
    }

    @Test
    @Scenario(
            id = "4c",
            title = "Reply to the TOKEN consume lost (client timeout; connection reset)",
            expected = "the submit is answered 503 and gives its token back (only its own consume, by its mark), so the"
                    + " same token retried runs once (or, when the client sent the consume again on its new connection,"
                    + " the submit saw its own mark and ran); executions 1")
    void lostConsumeReply() {
        List<String> figures = new ArrayList<>();
        for (Loss loss : Loss.values()) {
            executions.set(0);
            String scope = "user:" + loss;
            IssuedToken token = app.tokens.issue(scope, "submit", Duration.ofMinutes(5));
            String tokenKey = app.keys.token(scope, "submit", token.token());
            // The first script on the token's key is its consume (a give-back comes later, with the same key).
            Predicate<FaultProxy.Command> consume = command -> command.isScript(List.of(tokenKey), "U");
            proxy.dropReplies(consume, 1, loss.closeAfter);
            String first = submit(scope, token.token());
            // Lettuce may send the consume again on its new connection: the submit sees its own mark, and runs.
            String expected = first.equals("ran") ? "409" : "ran";
            Retries retries = retryUntil(() -> submit(scope, token.token()), outcome -> outcome.equals(expected));
            figures.add(loss + ": first " + first + ", same token again " + retries + "; executions " + executions.get()
                    + "; token scripts Redis executed " + proxy.forwardedMatching(consume));
            assertThat(first).as("%s: first submit", loss).isIn("503", "ran");
            assertThat(retries.last())
                    .as("%s: a token given back runs, a token used answers 409", loss)
                    .isEqualTo(expected);
            assertThat(executions.get()).as("%s: executions", loss).isEqualTo(1);
        }
        ReliabilityReport.measured("4c", String.join("; ", figures));
    }

    @Test
    @Scenario(
            id = "4d",
            title = "Reply to the LOCK acquire lost (client timeout; connection reset)",
            expected = "the caller gets 503 or 409 without the lock; a retry gets 409 until the lease ends, then the"
                    + " lock with a higher fencing token; one holder at a time")
    void lostAcquireReply() {
        List<String> figures = new ArrayList<>();
        for (Loss loss : Loss.values()) {
            executions.set(0);
            String resource = "sku-" + loss;
            long before = lockOnce(resource);
            String lockKey = app.keys.lock(resource);
            Predicate<FaultProxy.Command> acquire =
                    command -> command.isScript(List.of(lockKey, RedisKeys.fence(lockKey)), "");
            int acquiresBefore = proxy.forwardedMatching(acquire);
            proxy.dropReplies(acquire, 1, loss.closeAfter);
            String first = lock(resource);
            long[] fence = {0};
            Retries retries = retryUntil(
                    () -> {
                        try (LockHandle handle = app.locks.acquire(resource, LEASE, Duration.ZERO)) {
                            fence[0] = handle.fencingToken();
                            executions.incrementAndGet();
                            return "ran";
                        } catch (RuntimeException ex) {
                            return classify(ex);
                        }
                    },
                    outcome -> outcome.equals("ran"));
            figures.add(loss + ": first " + first + ", then " + retries + "; fencing token " + before + " -> "
                    + fence[0] + "; acquires Redis executed " + (proxy.forwardedMatching(acquire) - acquiresBefore));
            assertThat(first).as("%s: first acquire", loss).isIn("503", "409");
            assertThat(retries.last())
                    .as("%s: the lock is free after the lease", loss)
                    .isEqualTo("ran");
            assertThat(fence[0])
                    .as("%s: the fencing token still increases", loss)
                    .isGreaterThan(before);
            assertThat(executions.get()).as("%s: work under the lock", loss).isEqualTo(1);
        }
        ReliabilityReport.measured("4d", String.join("; ", figures));
    }

    /** Loads every script and opens the connection, so that the first dropped reply is the real command's. */
    private void warmUp() {
        String key = app.keys.requestId("", "op", "warm-up");
        execute(key);
        IssuedToken token = app.tokens.issue("warm-up", "submit", Duration.ofMinutes(1));
        app.tokens.consume("warm-up", "submit", token.token());
        lockOnce("warm-up");
        executions.set(0);
    }

    private long lockOnce(String resource) {
        try (LockHandle handle = app.locks.acquire(resource, LEASE, Duration.ZERO)) {
            return handle.fencingToken();
        }
    }

    private String lock(String resource) {
        try (LockHandle handle = app.locks.acquire(resource, LEASE, Duration.ZERO)) {
            executions.incrementAndGet();
            return handle.isLost() ? "lost" : "ran";
        } catch (RuntimeException ex) {
            return classify(ex);
        }
    }

    /** Runs the work once per key: "ran", "replay", or the HTTP status the failure maps to. */
    private String execute(String recordKey) {
        int before = executions.get();
        try {
            app.executor.execute(
                    new RequestIdCall(recordKey, null, Duration.ofHours(1), LEASE, Duration.ZERO),
                    () -> "result-" + executions.incrementAndGet(),
                    ResultCodec.utf8());
            return executions.get() > before ? "ran" : "replay";
        } catch (RuntimeException ex) {
            return classify(ex);
        }
    }

    private String submit(String scope, String token) {
        try {
            app.tokens.consume(scope, "submit", token);
            executions.incrementAndGet();
            return "ran";
        } catch (RuntimeException ex) {
            return classify(ex);
        }
    }

    private static String classify(RuntimeException ex) {
        if (ex instanceof IdempotencyStoreUnavailableException) {
            return "503";
        }
        if (ex instanceof RequestInProgressException
                || ex instanceof TokenAlreadyUsedException
                || ex instanceof LockBusyException) {
            return "409";
        }
        return "unexpected " + ex;
    }

    /** Retries every 100 ms until {@code done} or {@link #RETRY_WINDOW}; counts each outcome. */
    private static Retries retryUntil(Supplier<String> attempt, Predicate<String> done) {
        Retries retries = new Retries();
        long deadline = System.nanoTime() + RETRY_WINDOW.toNanos();
        while (System.nanoTime() < deadline) {
            String outcome = attempt.get();
            retries.add(outcome);
            if (done.test(outcome)) {
                break;
            }
            Race.sleep(100);
        }
        return retries;
    }

    /**
     * A claim: {@code SET key value PX lease NX GET} (Redis 7), or the claim script (Redis 6.2) whose ARGV[1] is the
     * 45-byte in-progress value "P" + owner + fingerprint.
     */
    private static boolean isClaim(FaultProxy.Command command, String key) {
        boolean setNxGet = command.name().equals("SET")
                && command.arg(1).equals(key)
                && command.mentions("NX")
                && command.mentions("GET");
        boolean script = command.isScript(List.of(key), "P")
                && command.size() == 6
                && command.arg(4).length() == 45;
        return setNxGet || script;
    }

    /**
     * Complete script: one key, ARGV[1] the owned prefix, ARGV[2] the completed record's head "C...", ARGV[3] the TTL,
     * ARGV[4] the result.
     */
    private static boolean isComplete(FaultProxy.Command command, String key) {
        return command.isScript(List.of(key), "P")
                && command.size() == 8
                && command.arg(5).startsWith("C");
    }

    /** How the reply is lost: the connection breaks after the client timed out, or at once. */
    private enum Loss {
        TIMEOUT(Duration.ofMillis(3 * COMMAND_TIMEOUT.toMillis())),
        RESET(Duration.ZERO);

        final Duration closeAfter;

        Loss(Duration closeAfter) {
            this.closeAfter = closeAfter;
        }

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The outcomes of a retry loop, run-length encoded for the report ("409x7, ran"). */
    private static final class Retries {

        private final List<String> outcomes = new ArrayList<>();

        void add(String outcome) {
            outcomes.add(outcome);
        }

        String last() {
            return outcomes.isEmpty() ? "none" : outcomes.get(outcomes.size() - 1);
        }

        @Override
        public String toString() {
            List<String> runs = new ArrayList<>();
            for (int i = 0; i < outcomes.size(); ) {
                int j = i;
                while (j < outcomes.size() && outcomes.get(j).equals(outcomes.get(i))) {
                    j++;
                }
                runs.add(outcomes.get(i) + (j - i > 1 ? "x" + (j - i) : ""));
                i = j;
            }
            return String.join(", ", runs);
        }
    }
}

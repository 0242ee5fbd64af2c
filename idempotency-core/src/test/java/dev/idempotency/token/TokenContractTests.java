package dev.idempotency.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InvalidTokenException;
import dev.idempotency.Strategy;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.TokenLimitExceededException;
import dev.idempotency.internal.token.TokenStore;
import dev.idempotency.internal.token.TokenStrategy;
import dev.idempotency.support.StoreContract;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Race;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code TOKEN} contract, with its issue bounds, run against every Redis topology users run and against memory. */
@ParameterizedClass
@MethodSource("dev.idempotency.support.StoreContract#stores")
class TokenContractTests extends StoreContract {

    private static final Duration TTL = Duration.ofMinutes(10);
    private static final Duration WINDOW = Duration.ofMinutes(1);

    private TokenExecutor tokens;

    @Override
    protected void setUp() {
        tokens = new TokenStrategy(tokenStore(), keys);
    }

    @Test
    void issuedTokenIsLongRandomAndStoredOnlyAsADigest() {
        IssuedToken issued = tokens.issue("alice", "submit", TTL);
        assertThat(issued.token()).hasSize(32).matches("[A-Za-z0-9_-]+");
        assertThat(issued.expiresIn()).isEqualTo(TTL);
        String key = keys.token("alice", "submit", issued.token());
        assertThat(key).doesNotContain(issued.token());
        assertThat(pttl(key)).isBetween(1L, TTL.toMillis());
    }

    @Test
    void tokenIsConsumedOnceThenReportedAsUsed() {
        String token = tokens.issue("alice", "submit", TTL).token();
        tokens.consume("alice", "submit", token);
        assertThatThrownBy(() -> tokens.consume("alice", "submit", token))
                .isInstanceOf(TokenAlreadyUsedException.class);
        assertThat(pttl(keys.token("alice", "submit", token)))
                .as("the used marker keeps the TTL")
                .isPositive();
    }

    @Test
    void aTokenIsUnknownOnAnotherOperationAndStaysGoodOnItsOwn() {
        String token = tokens.issue("alice", "feedback", TTL).token();
        assertThatThrownBy(() -> tokens.consume("alice", "checkout", token)).isInstanceOf(InvalidTokenException.class);
        tokens.consume("alice", "feedback", token);
        assertThatThrownBy(() -> tokens.consume("alice", "feedback", token))
                .isInstanceOf(TokenAlreadyUsedException.class);
    }

    @Test
    void unknownForgedOrForeignTokensAreInvalid() {
        String token = tokens.issue("alice", "submit", TTL).token();
        assertThatThrownBy(() -> tokens.consume("bob", "submit", token)).isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> tokens.consume("alice", "submit", "A".repeat(32)))
                .isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> tokens.consume("alice", "submit", "not a token"))
                .isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> tokens.consume("alice", "submit", null)).isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> tokens.consume("alice", "submit", "")).isInstanceOf(InvalidTokenException.class);
        tokens.consume("alice", "submit", token); // bob's attempt did not use it up
    }

    @Test
    void expiredTokenIsInvalid() {
        String token = tokens.issue("alice", "submit", Duration.ofMillis(50)).token();
        Await.until(Duration.ofSeconds(10), "the token to expire", () -> !exists(keys.token("alice", "submit", token)));
        assertThatThrownBy(() -> tokens.consume("alice", "submit", token)).isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void aSubmitThatMeetsItsTokenStillBeingGivenBackIsToldToRetryNotThatItWasUsed() {
        RestoresHeldBack store = new RestoresHeldBack(tokenStore());
        TokenExecutor held = new TokenStrategy(store, keys);
        String token = held.issue("alice", "submit", TTL).token();
        assertThatThrownBy(() -> held.execute("alice", "submit", token, () -> {
                    throw new IllegalStateException("work failed");
                }))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> held.consume("alice", "submit", token))
                .as("the failed submit's give-back cannot reach the store yet: the token comes back, so not token-used")
                .isInstanceOf(IdempotencyStoreUnavailableException.class);
        store.letRestoresThrough();
        assertThat(Race.await(Duration.ofSeconds(10), 20, () -> consumes(held, token)))
                .as("once the give-back lands, the next submit uses the token")
                .isTrue();
        assertThatThrownBy(() -> held.consume("alice", "submit", token)).isInstanceOf(TokenAlreadyUsedException.class);
    }

    private static boolean consumes(TokenExecutor executor, String token) {
        try {
            executor.consume("alice", "submit", token);
            return true;
        } catch (IdempotencyStoreUnavailableException stillGivingBack) {
            return false;
        }
    }

    @Test
    void restoredTokenCanBeSubmittedAgain() {
        String token = tokens.issue("alice", "submit", TTL).token();
        tokens.consume("alice", "submit", token);
        tokens.restore("alice", "submit", token);
        tokens.consume("alice", "submit", token);
        assertThatThrownBy(() -> tokens.consume("alice", "submit", token))
                .isInstanceOf(TokenAlreadyUsedException.class);
    }

    @Test
    void restoreDoesNotResurrectAnExpiredToken() {
        String token = tokens.issue("alice", "submit", TTL).token();
        delete(keys.token("alice", "submit", token));
        tokens.restore("alice", "submit", token);
        assertThat(exists(keys.token("alice", "submit", token))).isFalse();
    }

    @Test
    void executeConsumesRunsAndRestoresWhenTheWorkFails() {
        String token = tokens.issue("alice", "submit", TTL).token();
        assertThatThrownBy(() -> tokens.execute("alice", "submit", token, () -> {
                    throw new IllegalStateException("boom");
                }))
                .hasMessage("boom");
        AtomicInteger runs = new AtomicInteger();
        assertThat(tokens.execute("alice", "submit", token, runs::incrementAndGet))
                .as("restored after the failure")
                .isEqualTo(1);
        assertThatThrownBy(() -> tokens.execute("alice", "submit", token, runs::incrementAndGet))
                .isInstanceOf(TokenAlreadyUsedException.class);
        assertThatThrownBy(() -> tokens.execute("alice", "submit", "forged", runs::incrementAndGet))
                .isInstanceOf(InvalidTokenException.class);
        assertThat(runs).hasValue(1);
    }

    @Test
    void aSubmitRefusedWhileTheFirstRunsDoesNotTakeItsTokenAway() {
        String token = tokens.issue("alice", "submit", TTL).token();
        AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> tokens.execute("alice", "submit", token, () -> {
                    // A double click while the first submit runs: refused, and it must not take over the token, or
                    // the first could not give it back when it fails.
                    assertThatThrownBy(() -> tokens.execute("alice", "submit", token, runs::incrementAndGet))
                            .isInstanceOf(TokenAlreadyUsedException.class);
                    throw new IllegalStateException("boom");
                }))
                .hasMessage("boom");
        assertThat(tokens.execute("alice", "submit", token, runs::incrementAndGet))
                .as("given back by the failed first submit")
                .isEqualTo(1);
        assertThat(runs).hasValue(1);
    }

    @Test
    void workSeesATokenContextWithoutALease() {
        String token = tokens.issue("alice", "submit", TTL).token();
        IdempotencyContext context = tokens.execute(
                "alice", "submit", token, () -> IdempotencyContext.current().orElseThrow());
        assertThat(context.strategy()).isEqualTo(Strategy.TOKEN);
        assertThat(context.isLeaseHeld()).isTrue();
        assertThat(context.fencingToken()).isEmpty();
    }

    @Test
    void issueBoundsRefuseACallerPastItsBoundAndEveryonePastTheTotal() {
        IssueQuota quota = issueQuota(2, 3, Duration.ofMinutes(1));
        join(quota.take("alice"));
        join(quota.take("alice"));
        assertThatThrownBy(() -> join(quota.take("alice")))
                .isInstanceOfSatisfying(
                        TokenLimitExceededException.class,
                        refused -> assertThat(refused.retryAfter())
                                .isPositive()
                                .isLessThanOrEqualTo(Duration.ofMinutes(1)));
        assertThatThrownBy(() -> join(quota.take("bob")))
                .as("alice's refused request counted towards the total too")
                .isInstanceOf(TokenLimitExceededException.class);
        IssueQuota unbounded = issueQuota(0, 0, Duration.ofMinutes(1));
        for (int i = 0; i < 10; i++) {
            join(unbounded.take("alice"));
        }
    }

    @Test
    void issueBoundsStartAgainWithTheNextWindow() {
        IssueQuota quota = issueQuota(1, 0, Duration.ofMillis(300));
        join(quota.take("carol"));
        assertThatThrownBy(() -> join(quota.take("carol"))).isInstanceOf(TokenLimitExceededException.class);
        Await.until(Duration.ofSeconds(10), "a new window that gives carol a token again", () -> {
            try {
                join(quota.take("carol"));
                return true;
            } catch (TokenLimitExceededException ex) {
                return false;
            }
        });
    }

    @Test
    void aQuotaIssuesExactlyUpToItsBoundAndARefusedIssueLeavesNoToken() {
        RecordingStore store = new RecordingStore(tokenStore());
        TokenExecutor counted = new TokenStrategy(store, keys);
        IssueQuota quota = issueQuota(3, 0, WINDOW);
        for (int i = 0; i < 3; i++) {
            String token = join(counted.issueAsync("alice", "submit", TTL, quota, "alice"))
                    .token();
            assertThat(pttl(store.lastKey))
                    .as("token %d stored with its TTL", i)
                    .isBetween(1L, TTL.toMillis());
        }
        assertThatThrownBy(() -> join(counted.issueAsync("alice", "submit", TTL, quota, "alice")))
                .isInstanceOf(TokenLimitExceededException.class)
                .hasMessageContaining("this caller")
                .satisfies(refused -> assertThat(((TokenLimitExceededException) refused).retryAfter())
                        .isPositive()
                        .isLessThanOrEqualTo(WINDOW));
        assertThat(exists(store.lastKey)).as("the refused token").isFalse();
        join(counted.issueAsync("bob", "submit", TTL, quota, "bob"));
        assertThat(exists(store.lastKey)).as("another caller's token").isTrue();
    }

    @Test
    void theApplicationsBoundCountsEveryCallerAndIsCheckedAfterTheCallersOwn() {
        RecordingStore store = new RecordingStore(tokenStore());
        TokenExecutor counted = new TokenStrategy(store, keys);
        IssueQuota quota = issueQuota(2, 3, WINDOW);
        join(counted.issueAsync("alice", "submit", TTL, quota, "alice"));
        join(counted.issueAsync("alice", "submit", TTL, quota, "alice"));
        assertThatThrownBy(() -> join(counted.issueAsync("alice", "submit", TTL, quota, "alice")))
                .as("alice's third, past her bound of 2")
                .hasMessageContaining("this caller");
        assertThatThrownBy(() -> join(counted.issueAsync("bob", "submit", TTL, quota, "bob")))
                .as("bob's first, past the application's bound of 3: alice's refused issue counted")
                .isInstanceOf(TokenLimitExceededException.class)
                .hasMessageContaining("this application");
        assertThat(exists(store.lastKey)).isFalse();
        assertThatThrownBy(() -> join(quota.take("carol")))
                .as("take() counts as issue does")
                .hasMessageContaining("this application");
    }

    @Test
    void sixteenConcurrentSubmitsConsumeEachTokenOnce() throws Exception {
        int count = 200;
        int submits = 16;
        String[] issued = new String[count];
        for (int i = 0; i < count; i++) {
            issued[i] = tokens.issue("alice", "submit", TTL).token();
        }
        AtomicIntegerArray successes = new AtomicIntegerArray(count);
        AtomicInteger used = new AtomicInteger();
        Race.run(32, count * submits, i -> {
            try {
                tokens.consume("alice", "submit", issued[i % count]);
                successes.incrementAndGet(i % count);
            } catch (TokenAlreadyUsedException ex) {
                used.incrementAndGet();
            }
        });
        int doubles = 0;
        for (int i = 0; i < count; i++) {
            assertThat(successes.get(i)).as("successes of token %d", i).isEqualTo(1);
            doubles += successes.get(i) - 1;
        }
        assertThat(used).hasValue(count * (submits - 1));
        System.out.printf("[race] token: %d tokens x %d submits, double consumes=%d%n", count, submits, doubles);
    }

    /** A token store telling the key of the token it was last asked to issue. */
    private static final class RecordingStore extends ForwardingTokenStore {

        private volatile String lastKey = "";

        RecordingStore(TokenStore store) {
            super(store);
        }

        @Override
        public CompletableFuture<Void> issue(String key, Duration ttl) {
            lastKey = key;
            return super.issue(key, ttl);
        }

        @Override
        public CompletableFuture<Void> issue(String key, Duration ttl, IssueQuota quota, String caller) {
            lastKey = key;
            return super.issue(key, ttl, quota, caller);
        }
    }
}

package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.token.TokenExecutor;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Scenario 12: one-time tokens under concurrent double submits, and tokens that must never be accepted. */
@ReliabilityTest
class TokenTests {

    private static final int TOKENS = 1_000;
    private static final int SUBMITS = 16;
    private static final int THREADS = 64;
    private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");

    @Test
    @Scenario(
            id = "12",
            title = "1,000 tokens x 16 concurrent submits (HTTP); forged, malformed, expired and other users' tokens",
            expected = "exactly one 201 per token, the other 15 submits 409; forged, malformed, expired and other"
                    + " users' tokens accepted 0 (400); a token another user tried still works for its owner")
    void oneSuccessPerTokenAndNoForgeries(@Dedicated RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        try (App app = App.start(redis.host(), redis.port())) {
            Http http = app.http();
            List<String> tokens = issue(http, "alice", TOKENS);

            AtomicIntegerArray created = new AtomicIntegerArray(TOKENS);
            AtomicIntegerArray conflicts = new AtomicIntegerArray(TOKENS);
            Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
            AtomicInteger next = new AtomicInteger();
            // Submits are queued token by token, so the 16 submits of one token run at the same time.
            Race.run(THREADS, THREADS, Duration.ofMinutes(3), worker -> {
                for (int i = next.getAndIncrement(); i < TOKENS * SUBMITS; i = next.getAndIncrement()) {
                    int token = i / SUBMITS;
                    int status = submit(http, "alice", tokens.get(token));
                    statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    if (status == 201) {
                        created.incrementAndGet(token);
                    } else if (status == 409) {
                        conflicts.incrementAndGet(token);
                    }
                }
            });
            Map<String, Integer> tokensBySuccesses = new TreeMap<>();
            for (int t = 0; t < TOKENS; t++) {
                tokensBySuccesses.merge(created.get(t) + " x 201 + " + conflicts.get(t) + " x 409", 1, Integer::sum);
            }

            SecureRandom random = new SecureRandom();
            Map<String, Map<Integer, Integer>> rejected = new TreeMap<>();
            List<String> forged = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                byte[] bytes = new byte[24];
                random.nextBytes(bytes);
                forged.add(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
            }
            rejected.put("forged", submitAll(http, "alice", forged));
            rejected.put(
                    "malformed",
                    submitAll(
                            http,
                            "alice",
                            List.of("", "short", "A".repeat(33), "A".repeat(31) + "!", "A".repeat(31) + "=", "*")));
            List<String> aliceTokens = issue(http, "alice", 200);
            rejected.put("other user's (bob)", submitAll(http, "bob", aliceTokens));
            rejected.put("anonymous with alice's", submitAll(http, null, aliceTokens));
            TokenExecutor store = app.bean(TokenExecutor.class);
            List<String> expired = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                expired.add(store.issue("user:alice", "POST /feedback", Duration.ofMillis(500))
                        .token());
            }
            Race.sleep(1_000);
            rejected.put("expired", submitAll(http, "alice", expired));
            Map<Integer, Integer> ownerAfterOthers = submitAll(http, "alice", aliceTokens);
            int accepted = rejected.values().stream()
                    .mapToInt(counts -> counts.entrySet().stream()
                            .filter(e -> e.getKey() / 100 == 2)
                            .mapToInt(Map.Entry::getValue)
                            .sum())
                    .sum();

            Map<Integer, Integer> byStatus = new TreeMap<>();
            statuses.forEach((status, count) -> byStatus.put(status, count.get()));
            ReliabilityReport.measured(
                    "12",
                    TOKENS * SUBMITS + " submits: " + byStatus + "; tokens by outcome " + tokensBySuccesses
                            + "; never valid: " + rejected + " (accepted " + accepted + "); alice's tokens after bob"
                            + " and an anonymous caller tried them: " + ownerAfterOthers);
            assertThat(tokensBySuccesses)
                    .as("tokens by outcome")
                    .isEqualTo(Map.of("1 x 201 + " + (SUBMITS - 1) + " x 409", TOKENS));
            assertThat(accepted)
                    .as("forged, malformed, expired or other users' tokens accepted")
                    .isZero();
            rejected.forEach((kind, counts) -> assertThat(counts.keySet())
                    .as("statuses for %s tokens", kind)
                    .containsOnly(400));
            assertThat(ownerAfterOthers).as("the owner's submits").isEqualTo(Map.of(201, aliceTokens.size()));
        }
    }

    private static List<String> issue(Http http, String user, int count) throws Exception {
        String[] tokens = new String[count];
        Race.run(8, count, Duration.ofMinutes(1), i -> {
            Http.Response response = http.post("/idempotency/tokens?operation=POST%20/feedback", "", "X-User", user);
            Matcher token = TOKEN.matcher(response.body());
            if (response.status() != 201 || !token.find()) {
                throw new IllegalStateException("token issue failed: " + response);
            }
            tokens[i] = token.group(1);
        });
        return List.of(tokens);
    }

    private static Map<Integer, Integer> submitAll(Http http, String user, List<String> tokens) throws Exception {
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        Race.run(
                8,
                tokens.size(),
                Duration.ofMinutes(1),
                i -> statuses.computeIfAbsent(submit(http, user, tokens.get(i)), s -> new AtomicInteger())
                        .incrementAndGet());
        Map<Integer, Integer> counts = new TreeMap<>();
        statuses.forEach((status, count) -> counts.put(status, count.get()));
        return counts;
    }

    private static int submit(Http http, String user, String token) {
        return user == null
                ? http.post("/feedback", "{\"text\":\"great\"}", "Idempotency-Token", token)
                        .status()
                : http.post("/feedback", "{\"text\":\"great\"}", "Idempotency-Token", token, "X-User", user)
                        .status();
    }
}

package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyException;
import dev.idempotency.key.ClientKeys;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Scenario 11: hostile input at the HTTP edge, sent byte for byte over raw sockets. Which keys are valid is decided by
 * an oracle (HTTP's trimming of surrounding whitespace, then {@link ClientKeys#parse}), so the test knows what each
 * request must get.
 */
@ReliabilityTest
class KeyFuzzTests {

    private static final int THREADS = 4;
    private static final String ORDER = "{\"item\":\"book\"}";
    private static final Pattern DIGEST_KEY = Pattern.compile("idempotency:request-id:[A-Za-z0-9_-]{43}");
    private static final Set<String> HANDSHAKE = Set.of("info", "hello", "ping");

    @Test
    @Scenario(
            id = "11",
            title = "10,000 fuzzed Idempotency-Key values (empty, whitespace, 256+ chars, 64 KB, control characters,"
                    + " non-ASCII, broken Structured Field strings, glob and Lua metacharacters) and 500 malformed"
                    + " bodies, over raw HTTP",
            expected = "invalid keys: 400; malformed bodies: 4xx; zero 5xx; zero Redis commands for either; valid"
                    + " metacharacter keys run once, are replayed, and are stored only under fixed-length digests")
    void fuzzedKeysAndMalformedBodies(@Dedicated RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        List<Case> cases = Fuzz.cases(new Random(6), 10_000);
        List<Case> invalid = cases.stream().filter(c -> !c.valid()).toList();
        List<Case> valid = cases.stream().filter(Case::valid).toList();
        List<Case> malformed = Fuzz.malformedBodies(500);
        try (App app = App.start(redis.host(), redis.port());
                RedisAdmin admin = new RedisAdmin(redis.host(), redis.port())) {
            assertThat(app.http()
                            .post("/orders", ORDER, "Idempotency-Key", "warm-up")
                            .status())
                    .isEqualTo(201);

            long commandsBefore = dataCommands(redis);
            Map<String, Map<Integer, Integer>> invalidStatuses = send(app, invalid);
            Map<String, Map<Integer, Integer>> malformedStatuses = send(app, malformed);
            long commandsForInvalid = dataCommands(redis) - commandsBefore;

            Map<String, Map<Integer, Integer>> firstUse = send(app, valid);
            Map<String, Map<Integer, Integer>> secondUse = send(app, valid);
            List<String> keys = admin.call(commands -> commands.keys("*"));
            long digestKeys = keys.stream()
                    .filter(key -> DIGEST_KEY.matcher(key).matches())
                    .count();
            int executions = app.endpoints().totalExecutions() - 1;

            Map<Integer, Integer> invalidTotal = total(invalidStatuses);
            Map<Integer, Integer> malformedTotal = total(malformedStatuses);
            ReliabilityReport.measured(
                    "11",
                    invalid.size() + " invalid keys -> " + invalidTotal + " " + invalidStatuses + "; "
                            + malformed.size() + " malformed bodies -> " + malformedTotal + "; Redis commands for"
                            + " both: " + commandsForInvalid + "; " + valid.size() + " valid metacharacter keys ->"
                            + " first use " + total(firstUse) + ", second use " + total(secondUse)
                            + ", executions " + executions + ", Redis keys " + keys.size() + " (" + digestKeys
                            + " of the form prefix + 43-char digest)");
            assertThat(invalidTotal.keySet()).as("statuses for invalid keys").containsOnly(400);
            assertThat(malformedTotal.keySet())
                    .as("statuses for malformed bodies")
                    .isSubsetOf(400, 415);
            assertThat(commandsForInvalid)
                    .as("Redis commands for invalid keys and malformed bodies")
                    .isZero();
            assertThat(total(firstUse)).as("first use of valid keys").isEqualTo(Map.of(201, valid.size()));
            assertThat(total(secondUse)).as("second use of valid keys").isEqualTo(Map.of(201, valid.size()));
            assertThat(executions).as("executions: once per valid key").isEqualTo(valid.size());
            assertThat(digestKeys)
                    .as("every Redis key is a fixed-length digest")
                    .isEqualTo(keys.size());
        }
    }

    /** Sends every case once over {@link #THREADS} keep-alive connections; statuses by category. */
    private static Map<String, Map<Integer, Integer>> send(App app, List<Case> cases) throws Exception {
        Map<String, Map<Integer, AtomicInteger>> statuses = new ConcurrentHashMap<>();
        Race.run(THREADS, THREADS, Duration.ofMinutes(3), thread -> {
            try (RawHttp http = new RawHttp(app.port())) {
                for (int i = thread; i < cases.size(); i += THREADS) {
                    Case c = cases.get(i);
                    int status =
                            http.send(RawHttp.post("/orders", "Idempotency-Key", c.key(), c.contentType(), c.body()));
                    statuses.computeIfAbsent(c.category(), k -> new ConcurrentHashMap<>())
                            .computeIfAbsent(status, s -> new AtomicInteger())
                            .incrementAndGet();
                }
            }
        });
        Map<String, Map<Integer, Integer>> result = new TreeMap<>();
        statuses.forEach((category, counts) -> {
            Map<Integer, Integer> byStatus = new TreeMap<>();
            counts.forEach((status, count) -> byStatus.put(status, count.get()));
            result.put(category, byStatus);
        });
        return result;
    }

    private static Map<Integer, Integer> total(Map<String, Map<Integer, Integer>> byCategory) {
        Map<Integer, Integer> total = new TreeMap<>();
        byCategory.values().forEach(counts -> counts.forEach((status, n) -> total.merge(status, n, Integer::sum)));
        return total;
    }

    /** Commands Redis ran, without connection handshakes and the INFO that reads the numbers. */
    private static long dataCommands(RedisServer redis) {
        return redis.commandStats().entrySet().stream()
                .filter(entry ->
                        !HANDSHAKE.contains(entry.getKey()) && !entry.getKey().startsWith("client|"))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /** One request: the key's bytes on the wire, and whether the oracle says the library must accept it. */
    record Case(String category, byte[] key, boolean valid, String contentType, byte[] body) {}

    /** The generators. */
    private static final class Fuzz {

        private static final String METACHARACTERS = "*?[]^\\-{}()%.+$'\"#!~|&;<>=,:/@`";
        private static final List<String> LUA_AND_GLOB = List.of(
                "*",
                "?",
                "[a-z]*",
                "\\",
                "{tag}",
                "]]",
                "--[[",
                "redis.call('FLUSHALL')",
                "KEYS[1]",
                "ARGV[1]",
                "%s%n%x",
                "'..'",
                "$(rm)",
                "#{x}",
                "\\\"",
                "[[\\0]]");
        private static final List<String> NON_ASCII =
                List.of("é", "ü", "ß", "中文", "日本語", "😀", "\u00a0", "\u200b", "İ");
        private static final byte[] ORDER_BYTES = ORDER.getBytes(StandardCharsets.UTF_8);

        private Fuzz() {}

        static List<Case> cases(Random random, int count) {
            List<Case> cases = new ArrayList<>(count);
            add(cases, 100, "empty", i -> "");
            add(cases, 200, "whitespace", i -> whitespace(random));
            add(cases, 1_500, "256+ chars", i -> visible(random, 256 + random.nextInt(1_745)));
            add(cases, 16, "64 KB", i -> visible(random, 64 * 1024));
            add(
                    cases,
                    2_000,
                    "control chars",
                    i -> visible(random, 1 + random.nextInt(20))
                            + control(random)
                            + visible(random, 1 + random.nextInt(20)));
            add(cases, 500, "inner space", i -> visible(random, 1 + random.nextInt(10)) + " " + visible(random, 1));
            add(cases, 684, "broken SF string", i -> brokenStructuredField(random));
            for (int i = 0; i < 2_000; i++) { // non-ASCII as UTF-8 bytes and as single raw bytes
                byte[] bytes = i % 2 == 0
                        ? (visible(random, 1 + random.nextInt(10))
                                        + NON_ASCII.get(random.nextInt(NON_ASCII.size()))
                                        + visible(random, random.nextInt(10)))
                                .getBytes(StandardCharsets.UTF_8)
                        : concat(visible(random, 1 + random.nextInt(10)), (byte) (0x80 + random.nextInt(0x80)));
                cases.add(classify("non-ASCII", bytes));
            }
            for (int i = 0; cases.size() < count; i++) {
                String key =
                        i < LUA_AND_GLOB.size() ? LUA_AND_GLOB.get(i) : metacharacters(random, 1 + random.nextInt(64));
                cases.add(classify("metacharacters", (key + "-" + i).getBytes(StandardCharsets.ISO_8859_1)));
            }
            return cases;
        }

        static List<Case> malformedBodies(int count) {
            List<byte[]> bodies = List.of(
                    bytes("{"),
                    bytes("{\"item\":"),
                    bytes("not json"),
                    bytes("[1,2"),
                    bytes("{\"item\":}"),
                    bytes(""),
                    bytes("[]"),
                    new byte[] {'{', '"', (byte) 0xC3, 0x28, '"', ':', '1', '}'},
                    bytes("[".repeat(5_000)),
                    bytes("{\"item\":\"book\"" + "x".repeat(100)));
            List<Case> cases = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String contentType = i % 25 == 24 ? "text/plain" : "application/json";
                cases.add(new Case(
                        "malformed body",
                        ("body-" + i).getBytes(StandardCharsets.US_ASCII),
                        false,
                        contentType,
                        bodies.get(i % bodies.size())));
            }
            return cases;
        }

        private interface Generator {
            String next(int index);
        }

        private static void add(List<Case> cases, int count, String category, Generator generator) {
            for (int i = 0; i < count; i++) {
                cases.add(classify(category, generator.next(i).getBytes(StandardCharsets.ISO_8859_1)));
            }
        }

        private static Case classify(String category, byte[] key) {
            return new Case(category, key, accepted(key), "application/json", ORDER_BYTES);
        }

        /** The oracle: HTTP strips surrounding spaces and tabs, servlets read bytes as ISO-8859-1. */
        private static boolean accepted(byte[] key) {
            String value = new String(key, StandardCharsets.ISO_8859_1);
            int start = 0;
            int end = value.length();
            while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
                start++;
            }
            while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
                end--;
            }
            try {
                ClientKeys.parse(value.substring(start, end));
                return true;
            } catch (IdempotencyException ex) {
                return false;
            }
        }

        private static String visible(Random random, int length) {
            StringBuilder text = new StringBuilder(length);
            for (int i = 0; i < length; i++) {
                text.append((char) (0x21 + random.nextInt(0x7e - 0x21 + 1)));
            }
            return text.toString();
        }

        private static String whitespace(Random random) {
            StringBuilder text = new StringBuilder();
            for (int i = 0, n = 1 + random.nextInt(5); i < n; i++) {
                text.append(random.nextBoolean() ? ' ' : '\t');
            }
            return text.toString();
        }

        /** A control character other than CR and LF, which would end the header line itself. */
        private static char control(Random random) {
            while (true) {
                int c = random.nextInt(0x21);
                if (c == 0x20) {
                    return (char) 0x7f;
                }
                if (c != '\r' && c != '\n') {
                    return (char) c;
                }
            }
        }

        private static String brokenStructuredField(Random random) {
            String inside =
                    visible(random, 1 + random.nextInt(10)).replace("\"", "").replace("\\", "");
            return switch (random.nextInt(5)) {
                case 0 -> "\"\"";
                case 1 -> "\"" + inside + "\"" + inside + "\"";
                case 2 -> "\"" + inside + "\\q\"";
                case 3 -> "\"" + inside + " " + inside + "\"";
                default -> "\"" + inside + "\\\"";
            };
        }

        private static String metacharacters(Random random, int length) {
            StringBuilder text = new StringBuilder(length);
            for (int i = 0; i < length; i++) {
                text.append(
                        random.nextInt(4) == 0
                                ? (char) ('a' + random.nextInt(26))
                                : METACHARACTERS.charAt(random.nextInt(METACHARACTERS.length())));
            }
            return text.toString();
        }

        private static byte[] concat(String text, byte last) {
            byte[] head = text.getBytes(StandardCharsets.ISO_8859_1);
            byte[] all = java.util.Arrays.copyOf(head, head.length + 1);
            all[head.length] = last;
            return all;
        }

        private static byte[] bytes(String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
    }
}

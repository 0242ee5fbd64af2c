package dev.idempotency.bench.redis;

import dev.idempotency.bench.load.LoadRequest;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.testsupport.CommandMonitor;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Measures what each kind of request costs Redis, against the running bench app and its own Redis: round trips
 * (top-level commands in {@code MONITOR}, recorded by the test support's {@link CommandMonitor}), commands executed including those inside scripts ({@code INFO
 * commandstats} delta) and bytes per stored record ({@code MEMORY USAGE}). Writes {@code name=value} lines.
 *
 * <pre>
 * java -cp ... dev.idempotency.bench.redis.RedisCostProbe --redis-port 6390 --url http://127.0.0.1:8080 --out cost.properties
 * </pre>
 */
public final class RedisCostProbe {

    /** Requests per scenario; the figures are averages over them. */
    static final int REQUESTS = 20;

    /** The bench app runs with the default prefix and {@code scope: none} (the shared scope, ""). */
    private static final RedisKeys KEYS = new RedisKeys("idempotency:");

    private static final String SHARED_SCOPE = "";

    /** Commands the probe itself sends during a measurement. */
    private static final Set<String> PROBE_COMMANDS = Set.of("info", "echo");

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final String url;
    private final RespConnection redis;
    private final CommandMonitor monitor;
    private final Map<String, String> results = new LinkedHashMap<>();
    private int sequence;

    private RedisCostProbe(String url, RespConnection redis, CommandMonitor monitor) {
        this.url = url;
        this.redis = redis;
        this.monitor = monitor;
    }

    /** Entry point: {@code --redis-port}, {@code --url}, {@code --out}. */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        int port = Integer.parseInt(options.get("redis-port"));
        try (RespConnection redis = new RespConnection("127.0.0.1", port);
                CommandMonitor monitor = new CommandMonitor("127.0.0.1", port)) {
            RedisCostProbe probe = new RedisCostProbe(options.get("url"), redis, monitor);
            probe.run();
            StringBuilder out = new StringBuilder();
            probe.results.forEach(
                    (name, value) -> out.append(name).append('=').append(value).append('\n'));
            System.out.print(out);
            if (options.containsKey("out")) {
                Files.writeString(Path.of(options.get("out")), out);
            }
        }
    }

    private void run() throws IOException, InterruptedException {
        // Warm every path once: Spring falls back from EVALSHA to EVAL the first time a script meets a server.
        for (int i = 0; i < 3; i++) {
            post("/handwritten", uniqueId(), null);
            post("/request-id", uniqueId(), null);
            post("/lock", uniqueId(), null);
            post("/token", uniqueId(), issueTokens(1).get(0));
        }
        post("/request-id", "probe-duplicate", null);

        measure("handwritten-first", () -> post("/handwritten", uniqueId(), null));
        measure("request-id-first", () -> post("/request-id", uniqueId(), null));
        measure("request-id-dup", () -> post("/request-id", "probe-duplicate", null));
        List<String> tokens = issueTokens(REQUESTS);
        int[] next = {0};
        measure("token", () -> post("/token", uniqueId(), tokens.get(next[0]++)));
        measure("lock", () -> post("/lock", uniqueId(), null));

        recordSizes();
    }

    /** Runs {@link #REQUESTS} requests and records round trips and commands per request. */
    private void measure(String scenario, Request request) throws IOException, InterruptedException {
        monitor.reset();
        Map<String, Long> before = commandStats();
        for (int i = 0; i < REQUESTS; i++) {
            request.send();
        }
        Map<String, Long> after = commandStats();
        monitor.sync();
        List<String> topLevel = monitor.commands(false, redis.localPort());
        List<String> inside = monitor.commands(true, redis.localPort());
        long executed = 0;
        for (Map.Entry<String, Long> entry : after.entrySet()) {
            if (!PROBE_COMMANDS.contains(entry.getKey())) {
                executed += entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
            }
        }
        results.put(scenario + ".round_trips", perRequest(topLevel.size()));
        results.put(scenario + ".commands", perRequest(executed));
        results.put(scenario + ".script_commands", perRequest(inside.size()));
        results.put(scenario + ".top_level", String.join(" ", firstRequest(topLevel)));
        results.put(scenario + ".inside_scripts", String.join(" ", firstRequest(inside)));
    }

    /** Bytes Redis holds per record, for the ~200-byte response of the bench endpoints. */
    private void recordSizes() throws IOException, InterruptedException {
        String id = "probe-memory-" + System.nanoTime();
        HttpResponse<byte[]> response = post("/request-id", id, null);
        String recordKey = KEYS.requestId(SHARED_SCOPE, "POST /request-id", id);
        results.put("record.request-id.body_bytes", Integer.toString(response.body().length));
        results.put("record.request-id.key_bytes", Integer.toString(recordKey.length()));
        results.put("record.request-id.value_bytes", String.valueOf(redis.call("STRLEN", recordKey)));
        results.put("record.request-id.memory_usage", String.valueOf(redis.call("MEMORY", "USAGE", recordKey)));

        post("/handwritten", id, null);
        results.put(
                "record.handwritten.memory_usage", String.valueOf(redis.call("MEMORY", "USAGE", "handwritten:" + id)));

        String token = issueTokens(1).get(0);
        post("/token", id, token);
        results.put(
                "record.token.memory_usage",
                String.valueOf(redis.call("MEMORY", "USAGE", KEYS.token(SHARED_SCOPE, "POST /token", token))));

        post("/lock", id, null);
        String lockKey = KEYS.lock(id);
        results.put("record.lock.held_after_release", String.valueOf(redis.call("EXISTS", lockKey)));
        results.put(
                "record.lock.fence_memory_usage",
                String.valueOf(redis.call("MEMORY", "USAGE", RedisKeys.fence(lockKey))));
        results.put("record.lock.fence_ttl_seconds", String.valueOf(redis.call("TTL", RedisKeys.fence(lockKey))));
    }

    private Map<String, Long> commandStats() throws IOException {
        Map<String, Long> calls = new HashMap<>();
        for (String line : String.valueOf(redis.call("INFO", "commandstats")).split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                String name = line.substring("cmdstat_".length(), line.indexOf(':'));
                int start = line.indexOf("calls=") + "calls=".length();
                int end = line.indexOf(',', start);
                calls.put(name, Long.parseLong(line.substring(start, end)));
            }
        }
        return calls;
    }

    private List<String> issueTokens(int count) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(url + "/bench/tokens?count=" + count))
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        require(response.statusCode() == 200, "token supply answered " + response.statusCode());
        return response.body().lines().filter(line -> !line.isEmpty()).toList();
    }

    private HttpResponse<byte[]> post(String path, String id, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", id)
                .POST(HttpRequest.BodyPublishers.ofString(LoadRequest.body(id)));
        if (token != null) {
            request.header("Idempotency-Token", token);
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        require(response.statusCode() == 200, path + " answered " + response.statusCode());
        return response;
    }

    private String uniqueId() {
        return "probe-" + (++sequence) + "-" + System.nanoTime();
    }

    private static String perRequest(long total) {
        return String.format(java.util.Locale.ROOT, "%.2f", total / (double) REQUESTS);
    }

    private static List<String> firstRequest(List<String> commands) {
        return new ArrayList<>(commands.subList(0, Math.min(commands.size(), commands.size() / REQUESTS)));
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }

    @FunctionalInterface
    private interface Request {
        void send() throws IOException, InterruptedException;
    }
}

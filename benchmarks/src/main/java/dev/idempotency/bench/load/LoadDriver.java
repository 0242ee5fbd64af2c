package dev.idempotency.bench.load;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The load generator used when {@code wrk} is not installed: a fixed number of workers, each sending one request at a
 * time (closed loop, like wrk's connections) for a bounded duration. Prints the same {@code WRK_RESULT} line as
 * {@code wrk/bench.lua}.
 *
 * <pre>
 * java -cp ... dev.idempotency.bench.load.LoadDriver --url http://127.0.0.1:8080 --path /request-id --mode unique
 *      --tag r1 --duration 10 --connections 16 [--tokens tokens.txt]
 * </pre>
 */
public final class LoadDriver {

    /** No run may last longer than this, whatever the arguments say. */
    static final int MAX_DURATION_SECONDS = 120;

    private final HttpClient client;
    private final URI uri;
    private final String mode;
    private final String tag;
    private final List<String> tokens;
    private final AtomicInteger nextToken = new AtomicInteger();

    LoadDriver(URI uri, String mode, String tag, List<String> tokens) {
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        this.uri = uri;
        this.mode = mode;
        this.tag = tag;
        this.tokens = tokens;
    }

    /** Entry point; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        String mode = options.getOrDefault("mode", "unique");
        List<String> tokens = options.containsKey("tokens")
                ? Files.readAllLines(Path.of(options.get("tokens"))).stream()
                        .filter(line -> !line.isEmpty())
                        .toList()
                : List.of();
        LoadDriver driver = new LoadDriver(
                URI.create(options.get("url") + options.getOrDefault("path", "/baseline")),
                mode,
                options.getOrDefault("tag", "run"),
                tokens);
        int seconds = Math.min(MAX_DURATION_SECONDS, Integer.parseInt(options.getOrDefault("duration", "10")));
        int connections = Integer.parseInt(options.getOrDefault("connections", "16"));
        System.out.println(driver.run(connections, Duration.ofSeconds(seconds)).line());
    }

    /** Runs {@code connections} workers for {@code duration} and returns the merged result. */
    LoadResult run(int connections, Duration duration) throws InterruptedException {
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            Worker worker = new Worker(i + 1, end);
            workers.add(worker);
            worker.thread.start();
        }
        LatencyHistogram latencies = new LatencyHistogram();
        long errors = 0;
        for (Worker worker : workers) {
            worker.thread.join(duration.toMillis() + 30_000);
            latencies.add(worker.latencies);
            errors += worker.errors;
        }
        long elapsedMicros = (System.nanoTime() - start) / 1_000;
        return new LoadResult(
                latencies.count(), elapsedMicros, errors, latencies.percentile(50), latencies.percentile(99));
    }

    private HttpRequest request(int worker, long sequence) {
        String id = mode.equals("duplicate") ? LoadRequest.DUPLICATE_ID : tag + "-" + worker + "-" + sequence;
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", id)
                .POST(HttpRequest.BodyPublishers.ofString(LoadRequest.body(id)));
        if (mode.equals("token")) {
            int index = Math.min(nextToken.getAndIncrement(), tokens.size() - 1);
            request.header("Idempotency-Token", tokens.get(index));
        }
        return request.build();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("Expected --name value, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        if (!options.containsKey("url")) {
            throw new IllegalArgumentException("--url is required");
        }
        return options;
    }

    /** One closed-loop connection. */
    private final class Worker implements Runnable {

        final Thread thread;
        final LatencyHistogram latencies = new LatencyHistogram();
        final int id;
        final long end;
        long errors;

        Worker(int id, long end) {
            this.id = id;
            this.end = end;
            this.thread = new Thread(this, "load-" + id);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            long sequence = 0;
            while (System.nanoTime() < end) {
                HttpRequest request = request(id, ++sequence);
                long sent = System.nanoTime();
                try {
                    HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                    if (response.statusCode() >= 400) {
                        errors++;
                    }
                } catch (IOException ex) {
                    errors++;
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return;
                }
                latencies.record((System.nanoTime() - sent) / 1_000);
            }
        }
    }
}

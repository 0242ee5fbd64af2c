package dev.idempotency.bench.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The harness's small HTTP chores, so that {@code run.sh} needs no curl:
 *
 * <ul>
 *   <li>{@code await --url U [--seconds 90]}: waits until the bench app answers;
 *   <li>{@code tokens --url U --count N --out F}: writes N freshly issued tokens to F, one per line;
 *   <li>{@code prime-duplicate --url U}: sends the duplicates' key once and checks that a second request is replayed.
 * </ul>
 */
public final class BenchClient {

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    private final String url;

    private BenchClient(String url) {
        this.url = url;
    }

    /** Entry point: a command, then {@code --name value} options. */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        BenchClient client = new BenchClient(options.get("url"));
        switch (args[0]) {
            case "await" -> client.await(Integer.parseInt(options.getOrDefault("seconds", "90")));
            case "tokens" -> client.tokens(Integer.parseInt(options.get("count")), Path.of(options.get("out")));
            case "prime-duplicate" -> client.primeDuplicate();
            default -> throw new IllegalArgumentException("Unknown command " + args[0]);
        }
    }

    private void await(int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (post("/baseline", "await-" + System.nanoTime()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("The bench app did not answer within " + seconds + " s");
    }

    private void tokens(int count, Path out) throws IOException, InterruptedException {
        HttpResponse<Path> response = http.send(
                HttpRequest.newBuilder(URI.create(url + "/bench/tokens?count=" + count))
                        .timeout(Duration.ofSeconds(120))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofFile(out));
        if (response.statusCode() != 200) {
            throw new IllegalStateException("Token supply answered " + response.statusCode());
        }
    }

    private void primeDuplicate() throws IOException, InterruptedException {
        HttpResponse<String> first = post("/request-id", LoadRequest.DUPLICATE_ID);
        HttpResponse<String> second = post("/request-id", LoadRequest.DUPLICATE_ID);
        if (first.statusCode() != 200
                || second.statusCode() != 200
                || !"true"
                        .equals(second.headers()
                                .firstValue("Idempotent-Replayed")
                                .orElse(""))
                || !first.body().equals(second.body())) {
            throw new IllegalStateException("The duplicate key is not replayed: " + first.statusCode() + " then "
                    + second.statusCode() + " " + second.headers().map());
        }
    }

    private HttpResponse<String> post(String path, String id) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(url + path))
                        .timeout(Duration.ofSeconds(5))
                        .header("Content-Type", "application/json")
                        .header("Idempotency-Key", id)
                        .POST(HttpRequest.BodyPublishers.ofString(LoadRequest.body(id)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

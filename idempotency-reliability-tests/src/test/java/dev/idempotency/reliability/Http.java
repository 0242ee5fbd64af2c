package dev.idempotency.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** HTTP/1.1 client of one application instance; a failed connection is a response with status -1, not an exception. */
final class Http {

    /** Status of a request that got no HTTP response at all (connection refused, reset, timed out). */
    static final int NO_RESPONSE = -1;

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final int port;

    Http(int port) {
        this.port = port;
    }

    /** A POST with a JSON body and header name/value pairs. */
    Response post(String path, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.build());
    }

    Response get(String path) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5))
                .GET()
                .build());
    }

    private Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(
                    response.statusCode(),
                    response.body(),
                    response.headers().firstValue("Idempotent-Replayed").isPresent());
        } catch (IOException ex) {
            return new Response(NO_RESPONSE, String.valueOf(ex), false);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return new Response(NO_RESPONSE, "interrupted", false);
        }
    }

    /**
     * @param status HTTP status, or {@link #NO_RESPONSE}
     * @param replayed whether the response carried {@code Idempotent-Replayed: true}
     */
    record Response(int status, String body, boolean replayed) {}
}

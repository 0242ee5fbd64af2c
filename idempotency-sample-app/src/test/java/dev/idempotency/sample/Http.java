package dev.idempotency.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A tiny HTTP client for the full-stack tests, talking to the app on its real port. */
final class Http {

    private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final int port;

    Http(int port) {
        this.port = port;
    }

    /** A JSON POST; {@code headers} are name, value pairs. */
    HttpResponse<String> post(String path, String body, String... headers) {
        HttpRequest.Builder request = request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.build());
    }

    /** A POST without a body, as a client sends it when the body is optional. */
    HttpResponse<String> postEmpty(String path) {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    HttpResponse<String> get(String path) {
        return send(request(path).GET().build());
    }

    /** Issues a one-time token from the starter's endpoint. */
    String token() {
        HttpResponse<String> issued = postEmpty("/idempotency/tokens");
        Matcher matcher = TOKEN.matcher(issued.body());
        if (issued.statusCode() != 201 || !matcher.find()) {
            throw new AssertionError("no token issued: " + issued.statusCode() + " " + issued.body());
        }
        return matcher.group(1);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30));
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}

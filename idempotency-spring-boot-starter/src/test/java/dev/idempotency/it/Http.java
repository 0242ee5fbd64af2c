package dev.idempotency.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** A tiny HTTP client for the full-stack tests, as a client of the real server port. */
final class Http {

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final int port;

    Http(int port) {
        this.port = port;
    }

    HttpResponse<String> post(String path, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Sends a POST with one raw header value written byte for byte (ISO-8859-1), which a regular client would escape
     * or refuse, and returns the status code.
     */
    int postRawHeader(String path, String body, String header, byte[] value) {
        try (java.net.Socket socket = new java.net.Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            java.io.ByteArrayOutputStream request = new java.io.ByteArrayOutputStream();
            request.writeBytes(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + "Content-Length: " + body.length() + "\r\nConnection: close\r\n" + header + ": ")
                    .getBytes(StandardCharsets.ISO_8859_1));
            request.writeBytes(value);
            request.writeBytes(("\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().write(request.toByteArray());
            String statusLine = new java.io.BufferedReader(
                            new java.io.InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1))
                    .readLine();
            return Integer.parseInt(statusLine.split(" ")[1]);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static String[] basic(String user) {
        String credentials = Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
        return new String[] {"Authorization", "Basic " + credentials};
    }
}

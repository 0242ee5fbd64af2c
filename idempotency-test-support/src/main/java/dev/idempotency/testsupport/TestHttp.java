package dev.idempotency.testsupport;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A small HTTP client for full-stack tests, talking to an application on its real local port. */
public final class TestHttp {

    private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final int port;

    public TestHttp(int port) {
        this.port = port;
    }

    /** A JSON POST; {@code headers} are name, value pairs. */
    public HttpResponse<String> post(String path, String body, String... headers) {
        HttpRequest.Builder request = request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request);
    }

    /** A POST without a body, as a client sends it when the body is optional. */
    public HttpResponse<String> postEmpty(String path) {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()));
    }

    public HttpResponse<String> get(String path) {
        return send(request(path).GET());
    }

    public HttpResponse<String> delete(String path) {
        return send(request(path).DELETE());
    }

    /**
     * Issues a one-time token from the starter's token endpoint for {@code operation} (a route such as
     * {@code POST /feedback}, or a name given with {@code @Idempotent(operation)}); {@code headers} as in {@link #post}.
     */
    public String token(String operation, String... headers) {
        HttpResponse<String> issued = post(
                "/idempotency/tokens?operation="
                        + URLEncoder.encode(operation, StandardCharsets.UTF_8).replace("+", "%20"),
                "",
                headers);
        Matcher matcher = TOKEN.matcher(issued.body());
        if (issued.statusCode() != 201 || !matcher.find()) {
            throw new AssertionError("no token issued: " + issued.statusCode() + " " + issued.body());
        }
        return matcher.group(1);
    }

    /**
     * Sends a POST with one raw header value written byte for byte (ISO-8859-1), which a regular client would escape
     * or refuse, and returns the status code.
     */
    public int postRawHeader(String path, String body, String header, byte[] value) {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + "Content-Length: " + body.length() + "\r\nConnection: close\r\n" + header + ": ")
                    .getBytes(StandardCharsets.ISO_8859_1));
            request.writeBytes(value);
            request.writeBytes(("\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().write(request.toByteArray());
            String statusLine = new BufferedReader(
                            new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1))
                    .readLine();
            return Integer.parseInt(statusLine.split(" ")[1]);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Basic authentication headers (name, value) for {@code user} with password {@code secret}. */
    public static String[] basic(String user) {
        String credentials = Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
        return new String[] {"Authorization", "Basic " + credentials};
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        HttpRequest built = request.build();
        try {
            return client.send(built, HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException ex) {
            // A full-stack test's application runs in this JVM: what its threads were doing says why it did not answer.
            System.err.println("[test-http] no answer to " + built.method() + " " + built.uri() + " within "
                    + built.timeout().orElseThrow() + "; the threads of this JVM:\n" + threads());
            throw new IllegalStateException(ex);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static String threads() {
        StringBuilder dump = new StringBuilder();
        for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            dump.append('"').append(thread.getThreadName()).append("\" ").append(thread.getThreadState());
            if (thread.getLockName() != null) {
                dump.append(" on ").append(thread.getLockName());
            }
            dump.append('\n');
            for (StackTraceElement frame : thread.getStackTrace()) {
                dump.append("    at ").append(frame).append('\n');
            }
        }
        return dump.toString();
    }
}

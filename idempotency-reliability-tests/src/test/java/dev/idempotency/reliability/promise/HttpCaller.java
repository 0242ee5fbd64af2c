package dev.idempotency.reliability.promise;

import dev.idempotency.reliability.promise.oracle.CallRecord;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP clients of one entry path and strategy: each call waits, times out, disconnects (RST) or sends another
 * payload, as the history says. Under {@code TOKEN}, each key is one token, fetched from the token endpoint before
 * its first call ({@link TokenSupply}). With two application instances on the same Redis, a call goes to the instance
 * its send time picks (even or odd ms, so that it shrinks to the first), and each attempt of a last call to the next
 * instance.
 */
final class HttpCaller implements Caller {

    private static final Duration PATIENCE = CallRecord.PATIENCE;
    private static final Pattern PROBLEM_TYPE = Pattern.compile("urn:idempotency:problem:([a-z-]+)");
    private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");

    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final TokenSupply tokens = new TokenSupply(this::issue);
    private final int[] ports;
    private final String path;
    private final Guard guard;

    /** Calls {@code path} under {@code guard} on the instances listening on {@code ports}. */
    HttpCaller(String path, Guard guard, int... ports) {
        this.ports = ports.clone();
        this.path = path;
        this.guard = guard;
    }

    @Override
    public void prepare(Collection<String> keys) {
        if (guard == Guard.TOKEN) {
            tokens.prepare(keys);
        }
    }

    @Override
    public Answer call(History.Call call, String key, Job job, String id) throws Exception {
        int port = ports[call.at() % ports.length];
        return switch (call.ending()) {
            case DISCONNECTS ->
                LeavingClient.leave(port, request(port, key, job, id), call.endAfter(), false, id, call.key());
            case READS_SLOWLY ->
                LeavingClient.leave(port, request(port, key, job, id), call.endAfter(), true, id, call.key());
            case TIMES_OUT -> {
                try {
                    yield exchange(port, key, job, id, call.key(), false, Duration.ofMillis(call.endAfter()));
                } catch (HttpTimeoutException gaveUp) {
                    yield Answer.none(id, call.key());
                }
            }
            default -> waiting(port, key, job, id, call.key(), false);
        };
    }

    /** Each HTTP call has its own connection: the last calls of the keys go at once. */
    @Override
    public boolean lastCallsAtOnce() {
        return true;
    }

    @Override
    public Answer last(int index, int attempt, String key, Job job, String id) throws Exception {
        return waiting(ports[attempt % ports.length], key, job, id, index, true);
    }

    /**
     * A call whose client waits its whole patience: no answer by then is recorded as none (the oracle's liveness rule
     * judges such a call, {@code oracle.Liveness}), so that a hung call is judged with the rest of its history.
     */
    private Answer waiting(int port, String key, Job job, String id, int index, boolean last) throws Exception {
        try {
            return exchange(port, key, job, id, index, last, PATIENCE);
        } catch (HttpTimeoutException gaveUp) {
            return new Answer(id, index, last, Answer.NONE, "", false, null);
        }
    }

    private Answer exchange(int port, String key, Job job, String id, int index, boolean last, Duration timeout)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + target(key)))
                .timeout(timeout)
                .POST(HttpRequest.BodyPublishers.ofString(json(job)));
        headers(key, id).forEach(request::header);
        HttpResponse<String> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException gaveUp) {
            throw gaveUp;
        } catch (IOException broken) {
            return Answer.none(id, index); // the connection broke under the answer: the client saw nothing
        }
        Matcher type = PROBLEM_TYPE.matcher(response.body());
        String body = response.body().startsWith("data:") ? response.body().substring(5) : response.body(); // an event
        int newline = body.indexOf('\n');
        return new Answer(
                id,
                index,
                last,
                response.statusCode(),
                newline < 0 ? body : body.substring(0, newline), // a large answer's padding, an event's end
                response.headers().firstValue("Idempotent-Replayed").isPresent(),
                type.find() ? type.group(1) : null);
    }

    /** The raw HTTP/1.1 request of a call, for a client that leaves early. */
    private byte[] request(int port, String key, Job job, String id) {
        byte[] body = json(job).getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("POST " + target(key) + " HTTP/1.1\r\n")
                .append("Host: 127.0.0.1:")
                .append(port)
                .append("\r\n");
        headers(key, id)
                .forEach((name, value) ->
                        head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] request = Arrays.copyOf(headBytes, headBytes.length + body.length);
        System.arraycopy(body, 0, request, headBytes.length, body.length);
        return request;
    }

    private Map<String, String> headers(String key, String id) {
        return switch (guard) {
            case REQUEST_ID -> Map.of("Content-Type", "application/json", "X-Call", id, "Idempotency-Key", key);
            case TOKEN -> Map.of("Content-Type", "application/json", "X-Call", id, "Idempotency-Token", tokens.of(key));
            case LOCK -> Map.of("Content-Type", "application/json", "X-Call", id);
        };
    }

    /** A token from the token endpoint: {@code null} on a 503 (Redis still coming back from a fault). */
    private @Nullable String issue() throws IOException, InterruptedException {
        HttpResponse<String> issued = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports[0] + "/idempotency/tokens?operation="
                                + ServletPaths.TOKEN_GROUP))
                        .timeout(PATIENCE)
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher token = TOKEN.matcher(issued.body());
        if (issued.statusCode() == 201 && token.find()) {
            return token.group(1);
        }
        if (issued.statusCode() == 503) {
            return null;
        }
        throw new IllegalStateException("no token: " + issued.statusCode() + " " + issued.body());
    }

    private String target(String key) {
        return "/p/" + path + "/" + guard.segment() + (guard == Guard.REQUEST_ID ? "" : "/" + key);
    }

    static String json(Job job) {
        return "{\"tag\":\"" + job.tag() + "\",\"outcome\":\"" + job.outcome() + "\",\"millis\":" + job.millis() + "}";
    }
}

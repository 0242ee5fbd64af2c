package dev.idempotency.reliability.promise;

import dev.idempotency.testsupport.RedisServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plays one {@link History} against a running application: every call at its time and ending its way, Redis paused
 * when the history says, then one last call per key, repeated until it is no longer told "busy", to see that every key
 * settles.
 */
final class HistoryRunner {

    private static final Duration SETTLE_DEADLINE = Duration.ofSeconds(15);

    /**
     * How long locks and claims may outlive the history: a lease (2 s: a claim or release that Redis ran after its
     * caller timed out, during a pause, expires with it), plus the longest work (0.8 s), plus slack for a loaded
     * machine.
     */
    private static final Duration QUIET_DEADLINE = Duration.ofSeconds(6);

    private static final Pattern PROBLEM_TYPE = Pattern.compile("urn:idempotency:problem:([a-z-]+)");
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final RedisServer redis;
    private final Supplier<List<String>> leftovers;

    /** @param leftovers the locks and in-progress claims Redis holds */
    HistoryRunner(RedisServer redis, Supplier<List<String>> leftovers) {
        this.redis = redis;
        this.leftovers = leftovers;
    }

    /**
     * The keys of one run, unique to it, everything the clients saw, and what Redis still held one lease after the
     * history ({@code lingering}) and after the last calls ({@code left}).
     */
    record Played(String keyPrefix, List<Answer> answers, List<String> lingering, List<String> left) {

        String key(int key) {
            return keyPrefix + key;
        }
    }

    Played play(History history, int port, String path, boolean lock) throws Exception {
        String prefix = "r" + RUNS.incrementAndGet() + "-" + history.seed() + "-k";
        List<Answer> answers = new ArrayList<>();
        ScheduledExecutorService clients =
                Executors.newScheduledThreadPool(history.calls().size() + 1);
        try {
            List<Future<Answer>> calls = new ArrayList<>();
            for (int i = 0; i < history.calls().size(); i++) {
                History.Call call = history.calls().get(i);
                String id = prefix + "-c" + i;
                calls.add(clients.schedule(
                        () -> send(port, path, lock, prefix, history, call, id), call.at(), TimeUnit.MILLISECONDS));
            }
            if (history.pause().span() > 0) {
                clients.schedule(this::pauseRedis, history.pause().at(), TimeUnit.MILLISECONDS)
                        .get(10, TimeUnit.SECONDS);
                clients.schedule(redis::resume, history.pause().span(), TimeUnit.MILLISECONDS)
                        .get(10, TimeUnit.SECONDS);
            }
            for (Future<Answer> call : calls) {
                answers.add(call.get(30, TimeUnit.SECONDS));
            }
        } finally {
            redis.resume(); // whatever failed above, Redis runs again
            clients.shutdownNow();
        }
        List<String> lingering = quiet();
        Set<Integer> keys = new TreeSet<>();
        history.calls().forEach(call -> keys.add(call.key()));
        for (int key : keys) {
            answers.add(settle(port, path, lock, prefix, history, key));
        }
        // The last calls' own stray claims (a claim Redis ran after its caller timed out) may outlive them by a lease.
        return new Played(prefix, answers, lingering, quiet());
    }

    /** Waits (bounded) until Redis holds no lock and no in-progress claim; returns what it still holds then. */
    private List<String> quiet() throws InterruptedException {
        long deadline = System.nanoTime() + QUIET_DEADLINE.toNanos();
        List<String> held = leftovers.get();
        while (!held.isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.sleep(50);
            held = leftovers.get();
        }
        return held;
    }

    private Void pauseRedis() {
        redis.pause();
        return null;
    }

    /** The last call of a key: repeated while the key is busy, until the deadline. */
    private Answer settle(int port, String path, boolean lock, String prefix, History history, int key)
            throws Exception {
        long deadline = System.nanoTime() + SETTLE_DEADLINE.toNanos();
        int attempt = 0;
        while (true) {
            String id = prefix + "-last" + key + "-" + attempt++;
            Answer answer = waitFor(port, path, lock, prefix + key, history.job(key, false), id, key, true);
            if (!answer.isBusy() && answer.status() != 503 || System.nanoTime() - deadline > 0) {
                return answer;
            }
            Thread.sleep(100); // a client's back-off between retries
        }
    }

    private Answer send(
            int port, String path, boolean lock, String prefix, History history, History.Call call, String id)
            throws Exception {
        String key = prefix + call.key();
        Job job = history.job(call.key(), call.ending() == History.Ending.OTHER_PAYLOAD);
        return switch (call.ending()) {
            case DISCONNECTS -> disconnect(port, path, lock, key, job, id, call);
            case TIMES_OUT -> {
                try {
                    yield exchange(
                            port, path, lock, key, job, id, call.key(), false, Duration.ofMillis(call.endAfter()));
                } catch (HttpTimeoutException gaveUp) {
                    yield Answer.none(id, call.key());
                }
            }
            default -> waitFor(port, path, lock, key, job, id, call.key(), false);
        };
    }

    private Answer waitFor(int port, String path, boolean lock, String key, Job job, String id, int index, boolean last)
            throws Exception {
        return exchange(port, path, lock, key, job, id, index, last, Duration.ofSeconds(20));
    }

    private Answer exchange(
            int port,
            String path,
            boolean lock,
            String key,
            Job job,
            String id,
            int index,
            boolean last,
            Duration timeout)
            throws Exception {
        HttpResponse<String> response;
        try {
            response =
                    client.send(request(port, path, lock, key, job, id, timeout), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException gaveUp) {
            throw gaveUp;
        } catch (IOException broken) {
            return Answer.none(id, index); // the connection broke under the answer: the client saw nothing
        }
        Matcher type = PROBLEM_TYPE.matcher(response.body());
        return new Answer(
                id,
                index,
                last,
                response.statusCode(),
                response.body(),
                response.headers().firstValue("Idempotent-Replayed").isPresent(),
                type.find() ? type.group(1) : null);
    }

    private static HttpRequest request(
            int port, String path, boolean lock, String key, Job job, String id, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + target(path, lock, key)))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("X-Call", id)
                .POST(HttpRequest.BodyPublishers.ofString(json(job)));
        if (!lock) {
            request.header("Idempotency-Key", key);
        }
        return request.build();
    }

    /** Sends the request on a socket of its own and drops the connection (RST) after {@code endAfter} ms. */
    private static Answer disconnect(
            int port, String path, boolean lock, String key, Job job, String id, History.Call call)
            throws IOException, InterruptedException {
        byte[] body = json(job).getBytes(StandardCharsets.UTF_8);
        String head = "POST " + target(path, lock, key) + " HTTP/1.1\r\n"
                + "Host: 127.0.0.1:" + port + "\r\n"
                + "Content-Type: application/json\r\n"
                + "X-Call: " + id + "\r\n"
                + (lock ? "" : "Idempotency-Key: " + key + "\r\n")
                + "Content-Length: " + body.length + "\r\n\r\n";
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            Thread.sleep(call.endAfter()); // the client goes away this long after sending: part of the history
            socket.setSoLinger(true, 0);
        }
        return Answer.none(id, call.key());
    }

    private static String target(String path, boolean lock, String key) {
        return "/p/" + path + (lock ? "/lock/" + key : "/request-id");
    }

    private static String json(Job job) {
        return "{\"tag\":\"" + job.tag() + "\",\"outcome\":\"" + job.outcome() + "\",\"millis\":" + job.millis() + "}";
    }
}

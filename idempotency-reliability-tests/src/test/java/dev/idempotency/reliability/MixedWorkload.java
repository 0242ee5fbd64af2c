package dev.idempotency.reliability;

import dev.idempotency.testsupport.Race;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The three strategies over HTTP against one application instance: orders sent twice per key (REQUEST_ID), token
 * submits sent twice (TOKEN) and lock reservations (LOCK), counting what came back and how often each body ran.
 */
final class MixedWorkload {

    private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");

    final Map<Integer, AtomicInteger> orders = new ConcurrentHashMap<>();
    final Map<Integer, AtomicInteger> tokens = new ConcurrentHashMap<>();
    final Map<Integer, AtomicInteger> locks = new ConcurrentHashMap<>();
    final AtomicInteger replayed = new AtomicInteger();
    int keys;
    int keysRunOnce;

    /** Sends {@code keys} orders twice each, {@code keys} tokens twice each and {@code keys} lock reservations. */
    static MixedWorkload run(App app, String run, int keys) throws Exception {
        MixedWorkload workload = new MixedWorkload();
        workload.keys = keys;
        Http http = app.http();
        Race.run(8, 3 * keys, Duration.ofMinutes(2), i -> {
            int k = i / 3;
            switch (i % 3) {
                case 0 -> {
                    for (int attempt = 0; attempt < 2; attempt++) {
                        Http.Response response =
                                http.post("/orders", "{\"item\":\"book\"}", "Idempotency-Key", run + "-" + k);
                        count(workload.orders, response.status());
                        if (response.replayed()) {
                            workload.replayed.incrementAndGet();
                        }
                    }
                }
                case 1 -> {
                    Matcher token = TOKEN.matcher(http.post("/idempotency/tokens?operation=POST%20/feedback", "")
                            .body());
                    String value = token.find() ? token.group(1) : "none";
                    for (int attempt = 0; attempt < 2; attempt++) {
                        count(
                                workload.tokens,
                                http.post("/feedback", "{}", "Idempotency-Token", value)
                                        .status());
                    }
                }
                default ->
                    count(
                            workload.locks,
                            http.post("/stock/" + run + "-" + k, "{}").status());
            }
        });
        for (int k = 0; k < keys; k++) {
            if (app.endpoints().executions("orders", run + "-" + k) == 1) {
                workload.keysRunOnce++;
            }
        }
        return workload;
    }

    private static void count(Map<Integer, AtomicInteger> statuses, int status) {
        statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
    }

    /** One line for the report. */
    String summary() {
        return keys + " keys: orders " + StatusCounts.of(orders) + " (replayed " + replayed + ", keys run once "
                + keysRunOnce + "), token submits " + StatusCounts.of(tokens) + ", lock reservations "
                + StatusCounts.of(locks);
    }

    /** Every call as the contract says: first calls 201, duplicates replayed, second token submits 409, locks 200. */
    boolean asPromised() {
        return StatusCounts.of(orders).equals(Map.of(201, 2 * keys))
                && replayed.get() == keys
                && keysRunOnce == keys
                && StatusCounts.of(tokens).equals(Map.of(201, keys, 409, keys))
                && StatusCounts.of(locks).equals(Map.of(200, keys));
    }
}

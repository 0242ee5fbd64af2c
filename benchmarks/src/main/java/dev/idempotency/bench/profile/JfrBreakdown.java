package dev.idempotency.bench.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the app's CPU per protected call goes, by the starter's own parts: each CPU sample ({@code jdk.ExecutionSample})
 * goes to the innermost frame of a known component, the JDK skipped (a digest under the fingerprint is the
 * fingerprint's); Jackson, Lettuce and SpEL called by the starter count as the starter's part that called them (Jackson
 * under the fingerprint is the fingerprint), and as the app's own when Spring called them; JDK reflection under the
 * starter is the starter's reflection. Then the bytes the app's threads allocated during the recording
 * ({@code jdk.ThreadAllocationStatistics}, last value less first, per thread). Sample shares and byte totals are what a
 * noisy machine barely moves, unlike throughput.
 *
 * <pre>
 * java -cp ... dev.idempotency.bench.profile.JfrBreakdown app.jfr [requests]
 * </pre>
 */
public final class JfrBreakdown {

    /** A part of the starter and the class-name prefixes of its code; the first that matches wins. */
    record Part(String name, List<String> prefixes) {}

    static final List<Part> STARTER = List.of(
            new Part(
                    "fingerprint (payload, canonical JSON, digest)",
                    List.of(
                            "dev.idempotency.internal.operation.CanonicalJson",
                            "dev.idempotency.internal.operation.CanonicalWriter",
                            "dev.idempotency.internal.operation.JsonText",
                            "dev.idempotency.internal.operation.JsonDecimal",
                            "dev.idempotency.internal.operation.Selection",
                            "dev.idempotency.internal.operation.Fingerprint",
                            "dev.idempotency.internal.operation.ArgumentFingerprint",
                            "dev.idempotency.internal.http.RequestPayload",
                            "dev.idempotency.internal.http.ReceivedBody",
                            "dev.idempotency.web.servlet.RequestFingerprint",
                            "dev.idempotency.web.servlet.ReceivedBodyAdvice",
                            "dev.idempotency.web.reactive.ExchangePayload",
                            "dev.idempotency.web.reactive.ReceivedBodyRequest")),
            new Part("observation and metrics", List.of("dev.idempotency.metrics.", "dev.idempotency.observation.")),
            new Part(
                    "capture and copies of the answer",
                    List.of(
                            "dev.idempotency.web.servlet.CapturingResponse",
                            "dev.idempotency.internal.http.HeldBody",
                            "dev.idempotency.internal.http.HeldBytes",
                            "dev.idempotency.web.reactive.RecordingResponse")),
            new Part(
                    "stored response: encode, decode, replayed headers",
                    List.of(
                            "dev.idempotency.internal.http.StoredResponse",
                            "dev.idempotency.internal.http.ReplayedHeaders")),
            new Part(
                    "SpEL keys",
                    List.of("org.springframework.expression.", "dev.idempotency.internal.operation.KeyExpression")),
            new Part(
                    "keys, key digests, owner ids",
                    List.of(
                            "dev.idempotency.key.",
                            "dev.idempotency.internal.KeyDigests",
                            "dev.idempotency.internal.lease.Owners")),
            new Part(
                    "stores: records, scripts and their arguments, leases",
                    List.of(
                            "dev.idempotency.internal.requestid.",
                            "dev.idempotency.internal.lock.",
                            "dev.idempotency.internal.token.",
                            "dev.idempotency.internal.redis.",
                            "dev.idempotency.internal.lease.")),
            new Part("the rest of the starter: interceptor, flows, settlement", List.of("dev.idempotency.")));

    /** Components whose code the starter calls: their samples count as the calling part's. */
    private static final List<String> CALLED = List.of(
            "tools.jackson.",
            "io.lettuce.",
            "org.springframework.data.redis.",
            "org.springframework.expression.",
            "io.micrometer.");

    private static final List<Part> OTHERS = List.of(
            new Part("the app's handler", List.of("dev.idempotency.bench.")),
            new Part("Micrometer (Spring's own observations)", List.of("io.micrometer.")),
            new Part("Jackson (the app's own JSON)", List.of("tools.jackson.")),
            new Part("Lettuce (not under the starter)", List.of("io.lettuce.", "org.springframework.data.redis.")),
            new Part(
                    "Tomcat / Netty (HTTP)", List.of("org.apache.", "io.netty.", "reactor.netty.", "jakarta.servlet.")),
            new Part("Spring MVC / WebFlux, Spring Security, Reactor", List.of("org.springframework.", "reactor.")));

    private static final String JDK = "JDK and other (no known component on the stack)";
    private static final String REFLECTION = "reflection and annotation lookups under the starter";
    private static final String LETTUCE = "Lettuce and Spring Data Redis on the caller's thread, for the starter";

    private JfrBreakdown() {}

    /** Entry point: the recording, then (optional) how many requests it covers, for bytes per request. */
    public static void main(String[] args) throws IOException {
        long requests = args.length > 1 ? Long.parseLong(args[1]) : 0;
        Map<String, Integer> parts = new LinkedHashMap<>();
        STARTER.forEach(part -> parts.put(part.name(), 0));
        parts.put(REFLECTION, 0);
        parts.put(LETTUCE, 0);
        OTHERS.forEach(part -> parts.put(part.name(), 0));
        parts.put(JDK, 0);
        int lettuceLoop = 0;
        int total = 0;
        Map<Long, long[]> allocated = new LinkedHashMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            String type = event.getEventType().getName();
            if (type.equals("jdk.ThreadAllocationStatistics") && event.getThread("thread") != null) {
                long[] range = allocated.computeIfAbsent(
                        event.getThread("thread").getJavaThreadId(), id -> new long[] {-1, 0});
                long bytes = event.getLong("allocated");
                range[0] = range[0] < 0 ? bytes : Math.min(range[0], bytes);
                range[1] = Math.max(range[1], bytes);
            } else if (type.equals("jdk.ExecutionSample") && event.getStackTrace() != null) {
                total++;
                RecordedThread thread = event.getThread("sampledThread");
                if (thread != null && String.valueOf(thread.getJavaName()).startsWith("lettuce-")) {
                    lettuceLoop++;
                } else {
                    parts.merge(part(event.getStackTrace()), 1, Integer::sum);
                }
            }
        }
        System.out.printf("%-60s %8s %7s%n", "app CPU samples by part", "samples", "share");
        for (Map.Entry<String, Integer> part : parts.entrySet()) {
            System.out.printf("%-60s %8d %6.1f%%%n", part.getKey(), part.getValue(), 100.0 * part.getValue() / total);
        }
        System.out.printf("%-60s %8d %6.1f%%%n", "Lettuce event loop (I/O)", lettuceLoop, 100.0 * lettuceLoop / total);
        long bytes = allocated.values().stream()
                .mapToLong(range -> range[1] - Math.max(range[0], 0))
                .sum();
        System.out.printf("allocated by the app's threads during the recording: %d bytes", bytes);
        System.out.println(requests > 0 ? String.format(", %.0f per request%n", (double) bytes / requests) : "");
    }

    /** The part a stack belongs to. */
    static String part(RecordedStackTrace stack) {
        List<RecordedFrame> frames = stack.getFrames();
        boolean reflection = false;
        String called = null;
        for (RecordedFrame frame : frames) { // innermost first
            String type = frame.getMethod().getType().getName();
            if (isJdk(type)) {
                reflection |= type.startsWith("java.lang.reflect.")
                        || type.startsWith("sun.reflect.")
                        || type.startsWith("jdk.internal.reflect.")
                        || type.equals("java.lang.Class");
                continue;
            }
            Part starter = type.startsWith("dev.idempotency.bench.") ? null : find(STARTER, type);
            if (starter != null) {
                if (called != null
                        && (called.startsWith("io.lettuce.") || called.startsWith("org.springframework.data."))) {
                    return LETTUCE;
                }
                return reflection && called == null ? REFLECTION : starter.name();
            }
            if (called == null && CALLED.stream().anyMatch(type::startsWith)) {
                called = type; // look further out: who called it?
                continue;
            }
            if (called != null && CALLED.stream().anyMatch(type::startsWith)) {
                continue;
            }
            Part other = find(OTHERS, called != null ? called : type);
            return other != null ? other.name() : JDK;
        }
        Part other = called != null ? find(OTHERS, called) : null;
        return other != null ? other.name() : JDK;
    }

    private static Part find(List<Part> parts, String type) {
        for (Part part : parts) {
            for (String prefix : part.prefixes()) {
                if (type.startsWith(prefix)) {
                    return part;
                }
            }
        }
        return null;
    }

    private static boolean isJdk(String type) {
        return type.startsWith("java.")
                || type.startsWith("javax.")
                || type.startsWith("jdk.")
                || type.startsWith("sun.")
                || type.startsWith("com.sun.");
    }
}

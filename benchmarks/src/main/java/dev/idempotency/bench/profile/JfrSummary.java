package dev.idempotency.bench.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarizes the CPU samples ({@code jdk.ExecutionSample}) of a JFR recording: by thread kind, by component (the
 * innermost frame that belongs to a known library, e.g. Lettuce, Jackson, this library), inclusively for this library's
 * methods, and the hottest methods by self time.
 *
 * <pre>
 * java -cp ... dev.idempotency.bench.profile.JfrSummary app.jfr [top]
 * </pre>
 */
public final class JfrSummary {

    /** Package prefixes, most specific first, and the component they are reported as. */
    private static final List<String[]> COMPONENTS = List.of(
            new String[] {"dev.idempotency.bench.", "bench app"},
            new String[] {"dev.idempotency.", "idempotency library"},
            new String[] {"org.springframework.data.redis.", "Spring Data Redis"},
            new String[] {"io.lettuce.", "Lettuce"},
            new String[] {"io.netty.", "Netty"},
            new String[] {"tools.jackson.", "Jackson"},
            new String[] {"org.springframework.web.", "Spring MVC"},
            new String[] {"org.springframework.http.", "Spring MVC"},
            new String[] {"org.springframework.aop.", "Spring AOP"},
            new String[] {"org.springframework.", "Spring (other)"},
            new String[] {"org.apache.", "Tomcat"},
            new String[] {"jakarta.servlet.", "Tomcat"},
            new String[] {"sun.nio.", "JDK NIO"},
            new String[] {"java.", "JDK"},
            new String[] {"jdk.", "JDK"},
            new String[] {"sun.", "JDK"});

    private JfrSummary() {}

    /** Entry point: the recording, then how many hot methods to list (default 25). */
    public static void main(String[] args) throws IOException {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 25;
        Map<String, Integer> threads = new LinkedHashMap<>();
        Map<String, Integer> components = new LinkedHashMap<>();
        Map<String, Integer> library = new LinkedHashMap<>();
        Map<String, Integer> hot = new LinkedHashMap<>();
        int total = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            RecordedStackTrace stack = event.getStackTrace();
            if (stack == null || stack.getFrames().isEmpty()) {
                continue;
            }
            total++;
            String thread = event.getThread("sampledThread") == null
                    ? "?"
                    : threadKind(event.getThread("sampledThread").getJavaName());
            threads.merge(thread, 1, Integer::sum);
            List<RecordedFrame> frames = stack.getFrames();
            hot.merge(name(frames.get(0)), 1, Integer::sum);
            components.merge(thread + " / " + component(frames), 1, Integer::sum);
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (RecordedFrame frame : frames) {
                String method = name(frame);
                if (method.startsWith("dev.idempotency.")
                        && !method.startsWith("dev.idempotency.bench.")
                        && seen.add(method)) {
                    library.merge(method, 1, Integer::sum);
                }
            }
        }
        System.out.println("samples: " + total);
        print("by thread", threads, total, 20);
        print("by thread / component (innermost known frame)", components, total, 30);
        print("idempotency library methods, inclusive", library, total, top);
        print("hottest methods, self", hot, total, top);
    }

    private static String component(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            for (String[] component : COMPONENTS) {
                if (type.startsWith(component[0]) && !component[1].equals("JDK")) {
                    return component[1];
                }
            }
        }
        return "JDK";
    }

    private static String threadKind(String name) {
        if (name == null) {
            return "?";
        }
        if (name.contains("-exec-")) {
            return "tomcat worker";
        }
        if (name.startsWith("http-nio")) {
            return "tomcat poller/acceptor";
        }
        if (name.startsWith("lettuce-")) {
            return "lettuce event loop";
        }
        if (name.startsWith("idempotency-")) {
            return name;
        }
        return "other";
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static void print(String title, Map<String, Integer> counts, int total, int limit) {
        System.out.println();
        System.out.println(title + ":");
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(limit)
                .forEach(entry -> System.out.printf(
                        "  %5.1f%%  %s%n", 100.0 * entry.getValue() / Math.max(1, total), entry.getKey()));
    }
}

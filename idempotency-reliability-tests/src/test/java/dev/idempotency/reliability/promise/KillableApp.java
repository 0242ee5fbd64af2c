package dev.idempotency.reliability.promise;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application a history kills ({@link History.Fault.Kind#APP_KILLED}), in a JVM of its own that {@link ChildApp}
 * starts: {@link PromiseApp} on Spring MVC, whose ledger is appended to a {@link LedgerFile}, and {@code GET /ping},
 * which answers once the application is up, with this JVM's {@link System#nanoTime()}. Its static helpers are the
 * checker's side: whether a started JVM answers, on the checker's clock, and its warm-up.
 */
@RestController
public class KillableApp {

    /** Enough for the classes of a claim and a completion to be loaded, and the first calls compiled. */
    private static final int WARM_UP_CALLS = 5;

    /**
     * @param args the ledger file, the last execution id of the application JVMs before this one, then the
     *     application's properties ({@code name=value})
     */
    public static void main(String[] args) {
        // Dies with the checker's JVM, even one that could not close its bench: no stray application holds the port.
        ProcessHandle.current()
                .parent()
                .ifPresent(checker ->
                        checker.onExit().thenRun(() -> Runtime.getRuntime().halt(1)));
        Ledger.idsAfter(Long.parseLong(args[1]));
        List<String> properties = new ArrayList<>(List.of(args).subList(2, args.length));
        properties.add("promise.ledger-file=" + args[0]);
        PromiseApp.start(WebApplicationType.SERVLET, properties, PromiseApp.class, KillableApp.class);
    }

    /**
     * Whether the application on {@code port} answers {@code /ping}; if so, the {@code nanoTime} it answers must lie
     * between the checker's readings before and after the call, or the times of its ledger could not be compared with
     * the checker's.
     */
    static boolean answers(HttpClient client, int port) {
        long before = System.nanoTime();
        HttpResponse<String> pong;
        try {
            pong = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ping"))
                            .timeout(Duration.ofSeconds(2))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
        long after = System.nanoTime();
        if (pong.statusCode() != 200) {
            return false;
        }
        long theirs = Long.parseLong(pong.body().trim());
        if (theirs < before || theirs > after) {
            throw new IllegalStateException("the application JVM's System.nanoTime (" + theirs + ") is not the"
                    + " checker's clock (" + before + " to " + after + "): their ledgers' times cannot be compared");
        }
        return true;
    }

    /**
     * A few calls through the protected path of the application on {@code port}, on keys starting with {@code keys}
     * (no history's), before any history's: a cold JVM takes long over
     * its first claims, and a kill in the first few hundred ms would rarely find work running.
     */
    static void warmUp(HttpClient client, int port, String keys) {
        for (int i = 0; i < WARM_UP_CALLS; i++) {
            String id = keys + i;
            try {
                client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/p/mvc-sync/request-id"))
                                .timeout(Duration.ofSeconds(30))
                                .header("Content-Type", "application/json")
                                .header("X-Call", id)
                                .header("Idempotency-Key", id)
                                .POST(HttpRequest.BodyPublishers.ofString(HttpCaller.json(new Job("main", "ok", 0))))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
    }

    /** Up, and the clock its ledger is written with, for the checker to compare with its own. */
    @GetMapping("/ping")
    public String ping() {
        return Long.toString(System.nanoTime());
    }
}

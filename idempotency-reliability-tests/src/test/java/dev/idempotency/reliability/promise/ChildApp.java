package dev.idempotency.reliability.promise;

import dev.idempotency.reliability.ChildJvm;
import dev.idempotency.reliability.promise.oracle.Kill;
import dev.idempotency.testsupport.Race;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The application of the histories that kill it ({@link History.Fault.Kind#APP_KILLED}): {@link KillableApp} in a JVM
 * of its own, on one port for good, so that the clients keep one address across its deaths. At the fault's start the
 * JVM is killed (SIGKILL: no shutdown hook, no release of its claims); at its end a new one is started on the same port
 * and Redis, and waited for. One JVM serves history after history until a fault kills it. Each JVM appends its
 * executions to a {@link LedgerFile} of its own, which this side reads: every JVM's ended executions, the live one's
 * running ones, and for each kill what the dead JVM left ({@link Kill}). Other faults go to the backend.
 */
final class ChildApp implements LedgerView, Faults, AutoCloseable {

    /** How long a new application JVM may take to answer {@code /ping}: some 5 s with C1 only, more under load. */
    private static final Duration START_DEADLINE = Duration.ofSeconds(90);

    /** The execution ids of the n-th JVM start after {@code n * IDS_PER_JVM}: its answers never repeat a dead one's. */
    private static final long IDS_PER_JVM = 1_000_000_000L;

    private final HttpClient client = HttpClient.newHttpClient();
    private final Backend backend;
    private final Path folder;
    private final int port;
    private final List<Path> ledgers = new ArrayList<>();
    private final List<Kill> kills = new ArrayList<>();
    private @Nullable Process process;

    private ChildApp(Backend backend, Path folder, int port) {
        this.backend = backend;
        this.folder = folder;
        this.port = port;
    }

    /** Starts the first application JVM on {@code backend}'s Redis, and waits until it answers. */
    static ChildApp start(Backend backend) {
        try {
            Files.createDirectories(HistoryFile.SHRUNK.getParent());
            Path folder = Files.createTempDirectory(HistoryFile.SHRUNK.getParent(), "killed-app-");
            ChildApp app = new ChildApp(backend, folder, ChildJvm.freePort());
            app.launch();
            return app;
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    int port() {
        return port;
    }

    /** The kills so far, in order. */
    synchronized List<Kill> kills() {
        return List.copyOf(kills);
    }

    @Override
    public void begin(History.Fault.Kind kind) {
        if (kind == History.Fault.Kind.APP_KILLED) {
            kill();
        } else {
            backend.begin(kind);
        }
    }

    @Override
    public void end(History.Fault.Kind kind) {
        if (kind == History.Fault.Kind.APP_KILLED) {
            launch();
        } else {
            backend.end(kind);
        }
    }

    @Override
    public synchronized void endFaults() {
        backend.endFaults();
        if (process == null) {
            launch();
        }
    }

    private synchronized void kill() {
        Process dying = Objects.requireNonNull(process, "no application JVM to kill");
        process = null;
        dying.destroyForcibly(); // SIGKILL
        try {
            if (!dying.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the application JVM outlived its SIGKILL");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        // Read once the JVM is dead: every execution it started did so before this moment, and its file is final.
        long at = System.nanoTime();
        LedgerFile.Read left = LedgerFile.read(ledgers.get(ledgers.size() - 1));
        Set<Long> ended = left.ended().stream().map(Ledger.Execution::id).collect(Collectors.toUnmodifiableSet());
        kills.add(new Kill(at, left.notEnded(), ended));
    }

    /** Starts the next application JVM and waits until it answers {@code /ping}, and its clock is this JVM's. */
    private synchronized void launch() {
        int number = ledgers.size();
        Path ledger = folder.resolve("ledger-" + number + ".tsv");
        Path log = folder.resolve("app-" + number + ".log");
        List<String> arguments = new ArrayList<>(List.of(ledger.toString(), Long.toString(number * IDS_PER_JVM)));
        arguments.add("server.port=" + port);
        arguments.addAll(backend.springProperties());
        Process started;
        try {
            started = ChildJvm.start(KillableApp.class, arguments, log);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        ledgers.add(ledger);
        process = started;
        boolean up = Race.await(START_DEADLINE, 100, () -> !started.isAlive() || KillableApp.answers(client, port));
        if (!up || !started.isAlive()) {
            throw new IllegalStateException(
                    "application JVM " + number + " did not start; log:\n" + ChildJvm.tail(log));
        }
        KillableApp.warmUp(client, port, "warm-up-" + port + "-" + number + "-");
    }

    @Override
    public synchronized List<Ledger.Execution> ended() {
        return ledgers.stream()
                .flatMap(file -> LedgerFile.read(file).ended().stream())
                .toList();
    }

    /** The live JVM's executions that have not ended; a dead JVM's never will ({@link #kills()}). */
    @Override
    public synchronized List<Ledger.Started> running() {
        return process == null
                ? List.of()
                : LedgerFile.read(ledgers.get(ledgers.size() - 1)).notEnded();
    }

    @Override
    public synchronized List<Long> lossReports() {
        return ledgers.stream()
                .flatMap(file -> LedgerFile.read(file).lossReports().stream())
                .sorted(Comparator.naturalOrder())
                .toList();
    }

    @Override
    public synchronized void close() {
        if (process != null) {
            process.destroyForcibly();
            process = null;
        }
    }
}

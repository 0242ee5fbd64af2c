package dev.idempotency.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged sample running as a child JVM. Its output is copied to a log file, and read to learn the port it
 * listens on (it is started on port 0) and when it has started: no polling, and a bounded wait.
 */
final class PackagedApp implements AutoCloseable {

    private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    private final Process process;
    private final Path log;
    private final CompletableFuture<Integer> started = new CompletableFuture<>();

    private PackagedApp(Process process, Path log) {
        this.process = process;
        this.log = log;
        Thread reader = new Thread(this::copyOutput, "packaged-app-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code java <jvmArguments> -jar <jar> <arguments>} on port 0; output goes to {@code log}. */
    static PackagedApp start(Path jar, Path log, List<String> jvmArguments, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArguments);
        command.add("-jar");
        command.add(jar.toString());
        command.add("--server.port=0");
        command.add("--server.address=127.0.0.1");
        command.addAll(arguments);
        Files.createDirectories(log.getParent());
        return new PackagedApp(
                new ProcessBuilder(command).redirectErrorStream(true).start(), log);
    }

    /** Waits until the application has started and returns its port; fails when it exits or takes too long. */
    int awaitStarted(Duration timeout) throws InterruptedException, IOException {
        try {
            return started.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException ex) {
            throw new AssertionError("The packaged app did not start within " + timeout + ": " + ex.getMessage() + "\n"
                    + Files.readString(log));
        }
    }

    Path log() {
        return log;
    }

    private void copyOutput() {
        Integer port = null;
        try (BufferedReader output =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter file = new PrintWriter(Files.newBufferedWriter(log), true)) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                file.println(line);
                Matcher matcher = PORT.matcher(line);
                if (matcher.find()) {
                    port = Integer.valueOf(matcher.group(1));
                }
                if (port != null && line.contains("Started SampleApplication")) {
                    started.complete(port);
                }
            }
            started.completeExceptionally(new IllegalStateException("it exited with " + process.waitFor()));
        } catch (IOException | InterruptedException ex) {
            started.completeExceptionally(ex);
        }
    }

    /** Stops the application (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
    }
}

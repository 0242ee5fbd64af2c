package dev.idempotency.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Starts, signals and reaps the harness's child processes and their temp directories. A JVM shutdown
 * hook SIGKILLs whatever is still alive and deletes the directories, so a test run that dies half way
 * (or never closes a server) does not leave Redis servers or files behind.
 */
final class ChildProcesses {

    private static final long WAIT_SECONDS = 10;
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final Set<Path> DIRECTORIES = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::killAll, "redis-harness-reaper"));
    }

    private ChildProcesses() {}

    static Process start(ProcessBuilder builder) throws IOException {
        Process process = builder.start();
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
        return process;
    }

    /**
     * Runs {@code builder}, which sends the command's output to {@code log}, and waits at most {@code timeoutSeconds}
     * for it to succeed. A failure, a timeout or an interrupt throws, naming the command and quoting what it wrote.
     */
    static void runToSuccess(ProcessBuilder builder, Path log, long timeoutSeconds) throws IOException {
        String command = String.join(" ", builder.command());
        Process process = start(builder);
        try {
            boolean exited = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!exited) {
                kill(process);
            }
            if (!exited || process.exitValue() != 0) {
                throw new IllegalStateException(command
                        + (exited ? " failed with exit code " + process.exitValue() : " timed out") + ":\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command, e);
        }
    }

    /** SIGKILL and wait for the exit, so the port is free when this returns. SIGKILL also ends a stopped process. */
    static void kill(Process process) {
        process.destroyForcibly();
        awaitExit(process);
    }

    /** SIGTERM, and SIGKILL if the process is still there after the grace period. */
    static void terminate(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
                kill(process);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Sends a signal such as {@code STOP} or {@code CONT}; Java has no API for those, so use kill(1). */
    static void signal(Process process, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(WAIT_SECONDS, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not run kill -" + signal + " " + process.pid(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while signalling " + process.pid(), e);
        }
    }

    static void awaitExit(Process process) {
        try {
            if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException(
                        "Process " + process.pid() + " did not exit within " + WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for process " + process.pid(), e);
        }
    }

    static Path createTempDirectory(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        DIRECTORIES.add(dir);
        return dir;
    }

    static void deleteRecursively(Path dir) {
        DIRECTORIES.remove(dir);
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // A leftover temp directory is harmless; failing a test run over it is not worth it.
        }
    }

    private static void killAll() {
        LIVE.forEach(Process::destroyForcibly);
        DIRECTORIES.forEach(ChildProcesses::deleteRecursively);
    }
}

package dev.idempotency.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A {@code redis-server} child process on 127.0.0.1, with its own temp directory and log file. */
final class RedisProcess implements ServerBackend {

    static final String HOST = "127.0.0.1";
    private static final int LOG_TAIL_LINES = 15;

    private final int port;
    private final Path dir;
    private final Path log;
    private final List<String> extraArgs;
    private @Nullable Process process;
    private boolean paused;

    private RedisProcess(int port, Path dir, List<String> extraArgs) {
        this.port = port;
        this.dir = dir;
        this.log = dir.resolve("redis.log");
        this.extraArgs = List.copyOf(extraArgs);
    }

    /** Spawns the process; it is not ready until it answers PING. */
    static RedisProcess launch(int port, List<String> extraArgs) {
        try {
            RedisProcess redis = new RedisProcess(
                    port, ChildProcesses.createTempDirectory("redis-harness-" + port + "-"), extraArgs);
            redis.spawn();
            return redis;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start redis-server on port " + port, e);
        }
    }

    private synchronized void spawn() throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Executables.require("redis-server", "the 'process' Redis provider")
                .toString());
        option(command, "--port", Integer.toString(port));
        option(command, "--bind", HOST);
        option(command, "--daemonize", "no");
        option(command, "--dir", dir.toString());
        // No persistence: tests start from an empty server and a restart must not reload data.
        option(command, "--save", "");
        option(command, "--appendonly", "no");
        // Otherwise a master waits 5 s for more replicas before it first syncs a replica.
        option(command, "--repl-diskless-sync-delay", "0");
        command.addAll(extraArgs);
        process = ChildProcesses.start(new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile())));
        paused = false;
    }

    private static void option(List<String> command, String name, String value) {
        command.add(name);
        command.add(value);
    }

    @Override
    public RedisProvider provider() {
        return RedisProvider.PROCESS;
    }

    @Override
    public String host() {
        return HOST;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public synchronized void checkAlive() {
        running();
    }

    private Process running() {
        Process current = process;
        if (current == null || !current.isAlive()) {
            throw new IllegalStateException("redis-server on port " + port + " is not running"
                    + (current == null ? "" : " (exit code " + current.exitValue() + ")") + "\n" + diagnostics());
        }
        return current;
    }

    @Override
    public String diagnostics() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "redis-server log tail (" + log + "):\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no redis-server log at " + log + ")";
        }
    }

    @Override
    public synchronized void kill() {
        if (process != null) {
            ChildProcesses.kill(process);
        }
    }

    @Override
    public synchronized void pause() {
        ChildProcesses.signal(running(), "STOP");
        paused = true;
    }

    @Override
    public synchronized void resume() {
        ChildProcesses.signal(running(), "CONT");
        paused = false;
    }

    @Override
    public synchronized void restart() {
        kill();
        try {
            spawn();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not restart redis-server on port " + port, e);
        }
    }

    @Override
    public synchronized void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        if (paused) {
            // A stopped process never handles SIGTERM, so there is no graceful way out of a pause.
            kill();
            return;
        }
        ChildProcesses.terminate(process);
    }

    @Override
    public synchronized void close() {
        try {
            kill();
        } finally {
            ChildProcesses.deleteRecursively(dir);
        }
    }
}

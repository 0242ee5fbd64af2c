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

/**
 * A {@code redis-server} child process ({@link RedisBinary}) on 127.0.0.1, with its own temp directory and log file.
 */
final class RedisProcess implements ServerBackend {

    static final String HOST = "127.0.0.1";
    private static final int LOG_TAIL_LINES = 15;

    private final int port;
    private final Path dir;
    private final Path log;
    private final Arguments arguments;
    private @Nullable Process process;
    private boolean paused;

    private RedisProcess(int port, Path dir, Arguments arguments) {
        this.port = port;
        this.dir = dir;
        this.log = dir.resolve("redis.log");
        this.arguments = arguments;
    }

    /** Spawns the process; it is not ready until it answers PING. */
    static RedisProcess launch(int port, List<String> extraArgs) {
        return launch(port, dir -> Arguments.of(extraArgs));
    }

    /**
     * Creates the process's temp directory, lets {@code setup} write what the process needs into it (certificates, a
     * Sentinel config file) and spawns the process; it is not ready until it answers PING.
     */
    static RedisProcess launch(int port, Setup setup) {
        Path dir = null;
        try {
            dir = ChildProcesses.createTempDirectory("redis-harness-" + port + "-");
            RedisProcess redis = new RedisProcess(port, dir, setup.prepare(dir));
            redis.spawn();
            return redis;
        } catch (IOException | RuntimeException e) {
            if (dir != null) {
                ChildProcesses.deleteRecursively(dir);
            }
            if (e instanceof RuntimeException) {
                throw (RuntimeException) e;
            }
            throw new UncheckedIOException("Could not start redis-server on port " + port, (IOException) e);
        }
    }

    private synchronized void spawn() throws IOException {
        List<String> command = new ArrayList<>();
        command.add(RedisBinary.server().toString());
        if (arguments.configFile != null) {
            // redis-server only takes a config file as its first argument; options after it override the file.
            command.add(arguments.configFile.toString());
        }
        option(command, "--port", Integer.toString(port));
        option(command, "--bind", HOST);
        option(command, "--daemonize", "no");
        option(command, "--dir", dir.toString());
        // No persistence: tests start from an empty server and a restart must not reload data (a durable server
        // overrides both with options that come later).
        option(command, "--save", "");
        option(command, "--appendonly", "no");
        // Otherwise a master waits 5 s for more replicas before it first syncs a replica.
        option(command, "--repl-diskless-sync-delay", "0");
        command.addAll(arguments.extra);
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

    /** The process's own temp directory: its log, and whatever its {@link Setup} wrote; deleted on close. */
    Path dir() {
        return dir;
    }

    /** Prepares a process before its first start; what it writes into the directory is reused on restart. */
    @FunctionalInterface
    interface Setup {

        /** Writes any files the process needs into {@code dir} and returns its arguments. */
        Arguments prepare(Path dir) throws IOException;
    }

    /** An optional config file ({@code redis-server <file> ...}, which Sentinel requires) and extra options. */
    static final class Arguments {

        final @Nullable Path configFile;
        final List<String> extra;

        private Arguments(@Nullable Path configFile, List<String> extra) {
            this.configFile = configFile;
            this.extra = List.copyOf(extra);
        }

        /** Options appended after the harness's defaults, so they override them. */
        static Arguments of(List<String> extra) {
            return new Arguments(null, extra);
        }

        /** A config file in the process's directory, then the defaults, then {@code extra}. */
        static Arguments withConfigFile(Path configFile, List<String> extra) {
            return new Arguments(configFile, extra);
        }
    }
}

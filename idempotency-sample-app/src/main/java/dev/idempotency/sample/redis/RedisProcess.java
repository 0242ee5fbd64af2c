package dev.idempotency.sample.redis;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a {@code redis-server} executable as a child process with its own temp directory and log file. */
final class RedisProcess {

    private static final long STOP_SECONDS = 5;

    private RedisProcess() {}

    static LocalRedisServer start(Path executable, String host, int port) throws IOException {
        Path dir = Files.createTempDirectory("sample-redis-" + port + "-");
        Path log = dir.resolve("redis.log");
        // No persistence: the sample's data is throwaway, and nothing may be written outside the temp directory.
        List<String> command = List.of(
                executable.toString(),
                "--port",
                Integer.toString(port),
                "--bind",
                host,
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--dir",
                dir.toString());
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile()))
                .start();
        Runnable stop = () -> {
            stop(process);
            Directories.deleteRecursively(dir);
        };
        try {
            Ping.awaitReady(host, port, process::isAlive);
        } catch (IOException ex) {
            stop.run();
            throw new IOException(ex.getMessage() + "; redis-server said:\n" + tail(log), ex);
        }
        return LocalRedisServer.of(port, "redis-server from PATH: " + executable, process::isAlive, stop);
    }

    /** SIGTERM first, so Redis shuts down cleanly; SIGKILL if it has not gone after a few seconds. */
    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(STOP_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException ex) {
            return "(no log at " + log + ")";
        }
    }
}

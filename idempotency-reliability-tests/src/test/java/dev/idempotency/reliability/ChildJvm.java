package dev.idempotency.reliability;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** An application started in a JVM of its own, on this JVM's class path, so that a scenario can kill it (SIGKILL). */
public final class ChildJvm {

    private ChildJvm() {}

    /** Starts {@code main} with {@code arguments}; its output goes to {@code log}. */
    public static Process start(Class<?> main, List<String> arguments, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(arguments);
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** A loopback port free right now, for the child's server. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        }
    }

    /** The first error and the last lines of the child's log, for a failure message. */
    public static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            String firstError = lines.stream()
                    .filter(line -> line.contains("Exception") || line.contains("ERROR"))
                    .findFirst()
                    .orElse("(no error logged)");
            return firstError + "\n...\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException ex) {
            return "(no log)";
        }
    }
}

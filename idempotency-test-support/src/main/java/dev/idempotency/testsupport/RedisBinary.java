package dev.idempotency.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The {@code redis-server} program the {@code process} provider runs: the one on the {@code PATH}, else the static
 * Redis {@value #BUNDLED_VERSION} binary (built with TLS) bundled in {@code org.signal:embedded-redis}, extracted once
 * per JVM and run as a real child process, so every topology (replicas, Sentinel, Cluster, TLS, ACL users) needs only
 * a JDK. A Sentinel is the same program with {@code --sentinel}, and clusters are joined with commands, so neither
 * {@code redis-sentinel} nor {@code redis-cli} is needed.
 *
 * <p>The system property {@value #PROPERTY} (or the environment variable {@value #ENVIRONMENT_VARIABLE}) chooses:
 * {@code auto} (the default: the {@code PATH}, then the bundled binary), {@code path} or {@code bundled}.
 */
final class RedisBinary {

    /** System property that chooses where {@code redis-server} comes from. */
    static final String PROPERTY = "idempotency.test.redis-binary";

    /** Environment variable that chooses it when the system property is unset. */
    static final String ENVIRONMENT_VARIABLE = "IDEMPOTENCY_TEST_REDIS_BINARY";

    static final String BUNDLED_VERSION = "7.0.15";

    private static @Nullable Path extracted;

    private RedisBinary() {}

    /** The program to run. */
    static Path server() {
        String choice = choice();
        Optional<Path> onPath = choice.equals("bundled") ? Optional.empty() : Executables.onPath("redis-server");
        if (onPath.isPresent()) {
            return onPath.get();
        }
        if (choice.equals("path")) {
            return Executables.require("redis-server", "the 'process' Redis provider with " + PROPERTY + "=path");
        }
        return bundled();
    }

    /** Where {@link #server()} comes from, for the harness's log lines. */
    static String source() {
        Path server = server();
        return server.equals(extracted)
                ? "bundled org.signal:embedded-redis binary " + BUNDLED_VERSION
                : "redis-server from the PATH, " + server;
    }

    private static String choice() {
        String property = System.getProperty(PROPERTY);
        String value = property != null && !property.isBlank() ? property : System.getenv(ENVIRONMENT_VARIABLE);
        String choice = value == null || value.isBlank() ? "auto" : value.trim().toLowerCase(Locale.ROOT);
        if (!choice.equals("auto") && !choice.equals("path") && !choice.equals("bundled")) {
            throw new IllegalArgumentException(
                    "Unknown " + PROPERTY + " '" + value + "'; expected one of auto, path, bundled");
        }
        return choice;
    }

    private static synchronized Path bundled() {
        if (extracted == null) {
            String resource = "redis-server-" + BUNDLED_VERSION + "-" + platform();
            try (InputStream binary = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
                if (binary == null) {
                    throw new IllegalStateException("redis-server is not on the PATH and " + resource
                            + " is missing from the class path (org.signal:embedded-redis)");
                }
                Path file = ChildProcesses.createTempDirectory("redis-harness-binary-")
                        .resolve("redis-server");
                Files.copy(binary, file, StandardCopyOption.REPLACE_EXISTING);
                if (!file.toFile().setExecutable(true, true)) {
                    throw new IllegalStateException("Could not make " + file + " executable");
                }
                extracted = file;
            } catch (IOException e) {
                throw new UncheckedIOException("Could not extract " + resource, e);
            }
        }
        return extracted;
    }

    /** The platform part of the bundled binaries' names, e.g. {@code linux-amd64}. */
    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String system = os.contains("mac") ? "darwin" : os.contains("linux") ? "linux" : null;
        String cpu = arch.equals("amd64") || arch.equals("x86_64")
                ? "amd64"
                : arch.equals("aarch64") || arch.equals("arm64") ? "arm64" : null;
        if (system == null || cpu == null) {
            throw new IllegalStateException("redis-server is not on the PATH, and no Redis binary is bundled for " + os
                    + " on " + arch + "; install Redis, or use " + RedisProvider.PROPERTY + "=testcontainers");
        }
        return system + "-" + cpu;
    }
}

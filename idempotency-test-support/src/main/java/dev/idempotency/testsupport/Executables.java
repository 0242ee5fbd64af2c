package dev.idempotency.testsupport;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/** Looks programs up on the {@code PATH}, the way a shell would. */
final class Executables {

    private Executables() {}

    static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Stream.of(path.split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst();
    }

    static Path require(String name, String purpose) {
        return require(name, purpose, "redis-server");
    }

    /** Like {@link #require(String, String)}, naming the Debian package that provides the program. */
    static Path require(String name, String purpose, String debianPackage) {
        return onPath(name)
                .orElseThrow(() -> new IllegalStateException(name + " is not on the PATH; it is needed for " + purpose
                        + " (install the " + debianPackage + " package)"));
    }
}

package dev.idempotency.sample.redis;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes the temp directories the local Redis servers work in. */
final class Directories {

    private Directories() {}

    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException ex) {
            // A leftover temp directory is harmless; failing a shutdown over it is not worth it.
        }
    }
}

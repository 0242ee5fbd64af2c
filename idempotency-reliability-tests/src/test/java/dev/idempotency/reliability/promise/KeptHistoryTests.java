package dev.idempotency.reliability.promise;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays every kept history ({@code src/test/resources/histories/*.history}, format: {@link HistoryFile}) in every
 * build, each judged as the properties judge theirs. A history is kept when it once broke the promise (a shrunk
 * history the properties wrote under {@code target/shrunk-histories/}, copied by {@code scripts/keep-histories.sh}),
 * or as a representative of a class of defects found before. {@code -Dpromise.history=FILE} replays that one file
 * instead (a path relative to the module, such as {@code target/shrunk-histories/mvc-sync-LOCK.history}).
 */
class KeptHistoryTests {

    private static final int AT_LEAST = 5;
    private static final Bench BENCH = new Bench();

    @AfterAll
    static void stop() {
        BENCH.close();
    }

    @TestFactory
    Stream<DynamicTest> everyKeptHistoryHolds() throws IOException, URISyntaxException {
        List<Path> kept = kept();
        assertThat(kept)
                .as("kept histories")
                .hasSizeGreaterThanOrEqualTo(System.getProperty("promise.history") != null ? 1 : AT_LEAST);
        return kept.stream()
                .map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
                    HistoryFile history = HistoryFile.read(file);
                    Bench.Judged judged = BENCH.play(history.history(), history.path(), history.guard());
                    assertThat(judged.violations())
                            .as(
                                    "%s (%s %s): %s",
                                    file.getFileName(), history.path(), history.guard(), history.history())
                            .isEmpty();
                }));
    }

    private static List<Path> kept() throws IOException, URISyntaxException {
        String one = System.getProperty("promise.history");
        if (one != null) {
            return List.of(Path.of(one).toAbsolutePath()); // one history, e.g. a shrunk one under target/
        }
        Path folder = Path.of(KeptHistoryTests.class.getResource("/histories").toURI());
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.toString().endsWith(".history"))
                    .sorted()
                    .toList();
        }
    }
}

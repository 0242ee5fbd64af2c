package dev.idempotency.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The SPI stands by itself: a strategy written against it sees the public API ({@code dev.idempotency.*} types) and
 * the SPI, never the library's internals or another strategy's package.
 */
class SpiDependencyTests {

    private static final Path SPI = Path.of("src/main/java/dev/idempotency/spi");
    private static final Pattern REFERENCE = Pattern.compile("dev\\.idempotency\\.([a-z]\\w*)\\.");

    @Test
    void spiReferencesOnlyThePublicApiAndItself() throws IOException {
        List<String> sources;
        try (Stream<Path> files = Files.list(SPI)) {
            sources = files.filter(file -> file.toString().endsWith(".java"))
                    .map(Object::toString)
                    .toList();
        }
        assertThat(sources).as("the SPI sources").hasSizeGreaterThan(5);
        List<String> foreign = sources.stream()
                .flatMap(source -> references(Path.of(source)))
                .filter(reference -> !reference.endsWith(": spi"))
                .toList();
        assertThat(foreign)
                .as("packages the SPI refers to, besides dev.idempotency and itself")
                .isEmpty();
    }

    private static Stream<String> references(Path source) {
        try {
            Matcher reference = REFERENCE.matcher(Files.readString(source));
            return reference.results().map(found -> source.getFileName() + ": " + found.group(1));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}

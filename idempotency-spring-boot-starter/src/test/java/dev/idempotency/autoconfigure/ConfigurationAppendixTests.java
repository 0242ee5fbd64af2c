package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The configuration appendix of the guide is what the configuration metadata gives ({@link ConfigurationAppendix}).
 * The page as it should be is written to {@code target/generated-docs/configuration.md} on every run; on a difference,
 * {@code scripts/refresh-configuration-appendix.sh} copies it into {@code docs/guide/}.
 */
class ConfigurationAppendixTests {

    private static final Path PAGE = Path.of("..", "docs", "guide", "configuration.md");
    private static final Path GENERATED = Path.of("target", "generated-docs", "configuration.md");

    @Test
    void theAppendixIsWhatTheMetadataGives() throws IOException {
        String page = Files.readString(PAGE);
        String regenerated = ConfigurationAppendix.regenerate(page, ConfigurationMetadataTests.starterMetadata());
        Files.createDirectories(GENERATED.getParent());
        Files.writeString(GENERATED, regenerated);

        assertThat(regenerated).as("generated blocks").contains("`idempotency.request-id.ttl` | `24h`");
        assertThat(page)
                .as(
                        "docs/guide/configuration.md differs from the metadata: run scripts/refresh-configuration-appendix.sh")
                .isEqualTo(regenerated);
    }
}

package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The configuration appendix of the guide ({@code docs/guide/configuration.md}) and the configuration metadata agree:
 * every property the metadata lists has a row, every row names a property that exists, and a default the metadata
 * knows is the default the row shows. On a failure the message lists the rows the metadata would give.
 */
class ConfigurationAppendixTests {

    private static final Path APPENDIX = Path.of("..", "docs", "guide", "configuration.md");
    private static final Pattern ROW = Pattern.compile(
            "(?m)^\\| `((?:idempotency|management\\.endpoint\\.idempotency)" + "\\.[a-z0-9.-]+)` \\| ([^|]*) \\|");

    @Test
    void theAppendixAndTheMetadataAgree() throws IOException {
        Map<String, String> documented = new LinkedHashMap<>();
        Matcher rows = ROW.matcher(Files.readString(APPENDIX));
        while (rows.find()) {
            documented.put(rows.group(1), rows.group(2).trim());
        }
        Map<String, JsonNode> metadata = new LinkedHashMap<>();
        ConfigurationMetadataTests.starterMetadata().path("properties").values().forEach(property -> {
            String name = property.path("name").asString();
            if (name.startsWith("idempotency.") && !name.equals("idempotency.policies")) { // a map: its own section
                metadata.put(name, property);
            }
        });
        assertThat(metadata).hasSizeGreaterThan(30);

        List<String> missing = new ArrayList<>();
        metadata.forEach((name, property) -> {
            if (!documented.containsKey(name)) {
                missing.add("| `" + name + "` | " + shown(property) + " | "
                        + property.path("description").asString("") + " |");
            }
        });
        assertThat(missing).as("rows the appendix lacks").isEmpty();
        assertThat(documented.keySet())
                .as("rows of properties that do not exist")
                .allMatch(name -> metadata.containsKey(name) || name.startsWith("management."));
        metadata.forEach((name, property) -> {
            JsonNode known = property.path("defaultValue");
            if (!known.isMissingNode() && !known.isNull() && !known.isArray()) {
                assertThat(normalized(documented.get(name)))
                        .as("default of %s", name)
                        .isEqualTo(normalized("`" + known.asString() + "`"));
            }
        });
    }

    private static String shown(JsonNode property) {
        JsonNode known = property.path("defaultValue");
        return known.isMissingNode() || known.isNull() ? "(none)" : "`" + known.asString() + "`";
    }

    /** A zero duration reads {@code 0s} in the appendix and {@code 0} in the metadata. */
    private static String normalized(String shown) {
        String value = shown.replace("`", "").trim();
        return value.matches("0(s|ms)?") ? "0" : value;
    }
}

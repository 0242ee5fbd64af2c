package dev.idempotency.internal.operation;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The canonical form in which JSON payloads are fingerprinted, whatever the application's mapper does: every member
 * kept, no insignificant whitespace, object members sorted by name, numbers as written ({@code 1.0} and {@code 1}
 * differ). A document that repeats a member name does not parse, so it is compared byte for byte instead of by its
 * last value.
 */
public final class CanonicalJson {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .build();

    private CanonicalJson() {}

    /** {@code bytes} as a JSON tree, or {@code null} when they are not one JSON document. */
    public static @Nullable JsonNode parse(byte[] bytes) {
        if (bytes.length == 0) {
            return null;
        }
        try {
            return MAPPER.readTree(bytes);
        } catch (JacksonException ex) {
            return null;
        }
    }

    public static byte[] write(JsonNode node) {
        return MAPPER.writeValueAsBytes(node);
    }
}

package dev.idempotency.internal.operation;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The canonical form as releases before the streaming writer made it, kept as the reference that {@link CanonicalJson}
 * must match byte for byte ({@code CanonicalJsonTests}) and as the "before" of {@code HttpBindingBenchmarks}: the body
 * parsed into a tree (duplicate names refused), the selected members picked out of it, the tree written with its
 * members sorted.
 */
public final class TreeCanonicalJson {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .build();

    private TreeCanonicalJson() {}

    /**
     * The canonical bytes of {@code json} (the members {@code fields} selects), or {@code null} when it has none and was
     * compared byte for byte. Throws what the tree threw: a number BigDecimal cannot hold escaped as
     * {@link NumberFormatException}.
     */
    public static byte @Nullable [] canonical(byte[] json, PayloadFields fields) {
        JsonNode tree = parse(json);
        return tree == null ? null : MAPPER.writeValueAsBytes(fields.select(tree));
    }

    /** The body as the fingerprint's part used to be added: canonical JSON, or else the bytes as received. */
    public static void addTo(Fingerprint fingerprint, char tag, byte[] json, PayloadFields fields) {
        byte[] canonical = canonical(json, fields);
        fingerprint.add(tag, canonical != null ? canonical : json);
    }

    private static @Nullable JsonNode parse(byte[] bytes) {
        if (bytes.length == 0) {
            return null;
        }
        try {
            return MAPPER.readTree(bytes);
        } catch (JacksonException ex) {
            return null;
        }
    }
}

package dev.idempotency.internal.operation;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The canonical form in which JSON payloads are fingerprinted, whatever the application's mapper does: every member
 * kept, no insignificant whitespace, object members sorted by name, strings with Jackson's escapes, integers as their
 * value and other numbers as {@link java.math.BigDecimal} writes them ({@code 1.0} and {@code 1} differ, {@code 1e5}
 * is {@code 1E+5}). A document that repeats a member name, or that is not one JSON document, has no canonical form:
 * it is compared byte for byte instead.
 *
 * <p>A body received as bytes is written in that form as it is parsed, token by token, into a buffer each thread
 * keeps ({@link CanonicalWriter}), then digested: no tree, and the same bytes the tree of earlier versions wrote, so
 * that stored fingerprints stay valid. The fingerprint's parts carry their length first, so the form is buffered
 * rather than digested while it is read. A value the application bound is first turned into a tree by its own mapper,
 * and that tree is written ({@link #write}).
 */
public final class CanonicalJson {

    /** The tree's parser settings, but buffers recycled per thread, as the writer is (no pool node per document). */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.threadLocalPool())
            .build();

    private static final ThreadLocal<CanonicalWriter> WRITERS = ThreadLocal.withInitial(CanonicalWriter::new);

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .build();

    private CanonicalJson() {}

    /**
     * Adds the canonical form of {@code json} (or of the members {@code fields} selects of it) to {@code fingerprint}
     * as one part tagged {@code tag}.
     *
     * @return whether it did: false, adding nothing, when {@code json} has no canonical form
     */
    public static boolean addTo(Fingerprint fingerprint, char tag, byte[] json, PayloadFields fields) {
        if (json.length == 0) {
            return false;
        }
        CanonicalWriter writer = WRITERS.get();
        try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), json)) {
            int from = writer.write(parser, fields);
            fingerprint.add(tag, writer.out.array(), from, writer.out.length() - from);
            return true;
        } catch (JacksonException | CanonicalWriter.NotCanonical | NumberFormatException ex) {
            return false; // not one JSON document, a name repeated, or a number BigDecimal cannot hold
        } finally {
            writer.release();
        }
    }

    /** A tree, as the application's mapper made it from a bound value, in canonical form. */
    public static byte[] write(JsonNode node) {
        return MAPPER.writeValueAsBytes(node);
    }
}

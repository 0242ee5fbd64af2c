package dev.idempotency.internal.operation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The part of a JSON payload that counts for an operation's fingerprint (a policy's {@code fingerprint-fields}): JSON
 * Pointers (RFC 6901) into the request body, the record value, or a bean method's arguments as an array
 * ({@code /0/amount}). None selects the whole payload. A selected member that is absent counts as absent, which
 * differs from {@code null}.
 */
public final class PayloadFields {

    /** The whole payload. */
    public static final PayloadFields ALL = new PayloadFields(List.of(), List.of());

    private final List<String> sources;
    private final List<JsonPointer> pointers;
    // The same pointers for the streaming canonical writer: each one's member names (or array indexes, -1 where the
    // segment is no index), its name in the selection as JSON text, and the order the selection's members take.
    private final String[][] properties;
    private final int[][] indexes;
    private final byte[][] names;
    private final int[] order;
    private final int deepest;

    private PayloadFields(List<String> sources, List<JsonPointer> pointers) {
        this.sources = sources;
        this.pointers = pointers;
        this.properties = new String[pointers.size()][];
        this.indexes = new int[pointers.size()][];
        this.names = new byte[pointers.size()][];
        int depth = 0;
        for (int i = 0; i < pointers.size(); i++) {
            List<JsonPointer> segments = new ArrayList<>();
            for (JsonPointer segment = pointers.get(i); !segment.matches(); segment = segment.tail()) {
                segments.add(segment);
            }
            properties[i] =
                    segments.stream().map(JsonPointer::getMatchingProperty).toArray(String[]::new);
            indexes[i] =
                    segments.stream().mapToInt(JsonPointer::getMatchingIndex).toArray();
            depth = Math.max(depth, segments.size());
            JsonText name = new JsonText();
            name.string(sources.get(i));
            names[i] = Arrays.copyOf(name.array(), name.length());
        }
        this.deepest = depth;
        // One member per distinct pointer text, in name order, as the tree's object held them (a repeat overwrote).
        Map<String, Integer> distinct = new TreeMap<>();
        for (int i = 0; i < sources.size(); i++) {
            distinct.put(sources.get(i), i);
        }
        this.order = distinct.values().stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * @param pointers JSON Pointers, each starting with {@code /}
     * @throws IllegalArgumentException naming the first pointer that is not one
     */
    public static PayloadFields of(@Nullable List<String> pointers) {
        if (pointers == null || pointers.isEmpty()) {
            return ALL;
        }
        List<JsonPointer> compiled = pointers.stream()
                .map(pointer -> {
                    if (!pointer.startsWith("/")) {
                        throw new IllegalArgumentException("fingerprint-fields entry '" + pointer
                                + "' is not a JSON Pointer; write it as /field or /field/nested");
                    }
                    return JsonPointer.compile(pointer);
                })
                .toList();
        return new PayloadFields(List.copyOf(pointers), compiled);
    }

    public boolean selectsAll() {
        return pointers.isEmpty();
    }

    /** The selected members of {@code payload}, by pointer; the whole payload when none are selected. */
    public JsonNode select(JsonNode payload) {
        if (pointers.isEmpty()) {
            return payload;
        }
        ObjectNode selected = JsonNodeFactory.instance.objectNode();
        for (int i = 0; i < pointers.size(); i++) {
            JsonNode value = payload.at(pointers.get(i));
            if (!value.isMissingNode()) {
                selected.set(sources.get(i), value);
            }
        }
        return selected;
    }

    int pointers() {
        return pointers.size();
    }

    /** The most segments of any pointer. */
    int deepest() {
        return deepest;
    }

    /** Whether pointer {@code i} selects the value where {@code path} is, as {@code JsonNode.at} would find it. */
    boolean selects(int i, CanonicalWriter.Path path) {
        String[] names = properties[i];
        if (names.length != path.depth()) {
            return false;
        }
        for (int level = 0; level < names.length; level++) {
            String member = path.name(level);
            boolean found = member != null
                    ? member.equals(names[level])
                    : indexes[i][level] >= 0 && indexes[i][level] == path.index(level);
            if (!found) {
                return false;
            }
        }
        return true;
    }

    /** Pointer {@code i}'s text as a JSON string: its member name in the selection. */
    byte[] name(int i) {
        return names[i];
    }

    /** The pointers whose members the selection writes, in order. */
    int[] order() {
        return order;
    }

    @Override
    public String toString() {
        return pointers.isEmpty() ? "the whole payload" : String.join(", ", sources);
    }
}

package dev.idempotency.internal.operation;

import java.util.List;
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

    private PayloadFields(List<String> sources, List<JsonPointer> pointers) {
        this.sources = sources;
        this.pointers = pointers;
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

    @Override
    public String toString() {
        return pointers.isEmpty() ? "the whole payload" : String.join(", ", sources);
    }
}

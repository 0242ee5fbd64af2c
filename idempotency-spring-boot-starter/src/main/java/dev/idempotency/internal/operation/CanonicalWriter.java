package dev.idempotency.internal.operation;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Writes one JSON document in {@link CanonicalJson canonical form} as its parser reads it, token by token, with no
 * tree: into a byte buffer it keeps for the next document (one writer per thread). An object's members are written as
 * they come, each with its name, and put in order once the object ends: in place when they came in order, else by one
 * copy of the object's members. The text of strings and numbers is written by {@link JsonText}; the members a
 * {@link PayloadFields} selects are copied aside as their values end ({@link Selection}).
 */
final class CanonicalWriter {

    /** A buffer grown past this is dropped after the document, so that one large body does not stay in memory. */
    private static final int KEPT_BYTES = 64 * 1024;

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    /** Thrown when the document is JSON but has no canonical form: an object repeats a member name, or more follows. */
    static final NotCanonical NOT_CANONICAL = new NotCanonical();

    final JsonText out = new JsonText();
    final Path path = new Path();
    private final Selection selection = new Selection();

    // The members of the objects being written, innermost last: name, and where the member starts and ends in out.
    private String[] names = new String[16];
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    private int members;
    private byte[] spare = new byte[256];

    /**
     * Writes the document {@code parser} reads, or the members {@code fields} selects of it, and answers where its
     * canonical form starts in {@link #out} (it ends at the buffer's length).
     *
     * @throws tools.jackson.core.JacksonException when the bytes are not one JSON document
     * @throws NotCanonical when an object repeats a member name or more than one document follows
     * @throws NumberFormatException for a number whose exponent {@link java.math.BigDecimal} cannot hold
     */
    int write(JsonParser parser, PayloadFields fields) {
        out.reset();
        members = 0;
        path.reset();
        selection.reset(fields);
        JsonToken first = parser.nextToken();
        if (first == null) {
            out.bytes(NULL); // only white space: the tree's MissingNode, written as null
        } else {
            value(parser, first);
            if (parser.nextToken() != null) {
                throw NOT_CANONICAL; // more than one document
            }
        }
        return fields.selectsAll() ? 0 : selection.writeSelected(out);
    }

    /** Forgets a buffer that grew large. */
    void release() {
        out.release(KEPT_BYTES);
        if (spare.length > KEPT_BYTES) {
            spare = new byte[256];
        }
        selection.release(KEPT_BYTES);
    }

    private void value(JsonParser parser, JsonToken token) {
        int start = out.length();
        switch (token) {
            case START_OBJECT -> object(parser);
            case START_ARRAY -> array(parser);
            case VALUE_STRING ->
                out.string(parser.getStringCharacters(), parser.getStringOffset(), parser.getStringLength());
            case VALUE_NUMBER_INT -> out.integer(parser);
            case VALUE_NUMBER_FLOAT -> out.decimal(parser);
            case VALUE_TRUE -> out.bytes(TRUE);
            case VALUE_FALSE -> out.bytes(FALSE);
            case VALUE_NULL -> out.bytes(NULL);
            default -> throw NOT_CANONICAL;
        }
        selection.ended(path, out, start);
    }

    private void array(JsonParser parser) {
        out.put('[');
        int index = 0;
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (index > 0) {
                out.put(',');
            }
            path.enter(null, index++);
            value(parser, token);
            path.leave();
        }
        out.put(']');
    }

    private void object(JsonParser parser) {
        out.put('{');
        int first = members;
        int from = out.length();
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            if (members > first) {
                out.put(',');
            }
            String name = parser.currentName();
            int member = push(name, out.length());
            out.string(name);
            out.put(':');
            path.enter(name, -1);
            value(parser, parser.nextToken());
            path.leave();
            ends[member] = out.length();
        }
        order(first, from);
        members = first;
        out.put('}');
    }

    private int push(String name, int start) {
        if (members == names.length) {
            names = Arrays.copyOf(names, members * 2);
            starts = Arrays.copyOf(starts, members * 2);
            ends = Arrays.copyOf(ends, members * 2);
        }
        names[members] = name;
        starts[members] = start;
        return members++;
    }

    /**
     * Puts the members {@code first..members-1}, written from {@code from}, in order of their names (as the tree
     * sorts them: {@link String#compareTo}); a repeated name makes the document not canonical.
     */
    private void order(int first, int from) {
        boolean ordered = true;
        for (int i = first + 1; i < members; i++) {
            int compared = names[i - 1].compareTo(names[i]);
            if (compared == 0) {
                throw NOT_CANONICAL;
            }
            ordered &= compared < 0;
        }
        if (ordered) {
            return;
        }
        for (int i = first + 1; i < members; i++) { // insertion sort: objects are small
            for (int j = i; j > first && names[j - 1].compareTo(names[j]) > 0; j--) {
                swap(j - 1, j);
            }
        }
        for (int i = first + 1; i < members; i++) {
            if (names[i - 1].equals(names[i])) {
                throw NOT_CANONICAL;
            }
        }
        int length = out.length() - from;
        if (spare.length < length) {
            spare = new byte[Math.max(length, spare.length * 2)];
        }
        System.arraycopy(out.array(), from, spare, 0, length);
        out.truncate(from);
        for (int i = first; i < members; i++) {
            if (i > first) {
                out.put(',');
            }
            out.bytes(spare, starts[i] - from, ends[i] - starts[i]);
        }
    }

    private void swap(int a, int b) {
        String name = names[a];
        names[a] = names[b];
        names[b] = name;
        int start = starts[a];
        starts[a] = starts[b];
        starts[b] = start;
        int end = ends[a];
        ends[a] = ends[b];
        ends[b] = end;
    }

    /** The document has no canonical form; one instance, without a stack trace. */
    static final class NotCanonical extends RuntimeException {

        private NotCanonical() {
            super("not canonical", null, false, false);
        }
    }

    /** Where the writer is in the document: member names (objects) and indexes (arrays), outermost first. */
    static final class Path {

        private @Nullable String[] names = new String[8];
        private int[] indexes = new int[8];
        private int depth;

        void reset() {
            depth = 0;
        }

        void enter(@Nullable String name, int index) {
            if (depth == names.length) {
                names = Arrays.copyOf(names, depth * 2);
                indexes = Arrays.copyOf(indexes, depth * 2);
            }
            names[depth] = name;
            indexes[depth++] = index;
        }

        void leave() {
            depth--;
        }

        int depth() {
            return depth;
        }

        /** The member name at {@code level}, or {@code null} in an array. */
        @Nullable
        String name(int level) {
            return names[level];
        }

        int index(int level) {
            return indexes[level];
        }
    }
}

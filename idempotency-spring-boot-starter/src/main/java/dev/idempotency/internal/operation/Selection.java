package dev.idempotency.internal.operation;

import java.util.Arrays;

/**
 * The members of one document that a {@link PayloadFields} selects, as the canonical writer finds them: each selected
 * value's canonical bytes copied aside when it ends (an object around it may still be put in order, which moves it but
 * never changes it), then written as the tree wrote the selection: one object whose member names are the pointers as
 * configured, in order, and whose values are the selected values; absent ones left out.
 */
final class Selection {

    private PayloadFields fields = PayloadFields.ALL;
    private byte[] values = new byte[256];
    private int length;
    private int[] starts = new int[4];
    private int[] ends = new int[4];

    void reset(PayloadFields fields) {
        this.fields = fields;
        length = 0;
        int pointers = fields.pointers();
        if (starts.length < pointers) {
            starts = new int[pointers];
            ends = new int[pointers];
        }
        Arrays.fill(starts, 0, pointers, -1);
    }

    void release(int keptBytes) {
        if (values.length > keptBytes) {
            values = new byte[256];
        }
    }

    /** The value that started at {@code start} in {@code out} ended where {@code path} is: copies it if selected. */
    void ended(CanonicalWriter.Path path, JsonText out, int start) {
        int depth = path.depth();
        if (depth == 0 || depth > fields.deepest()) {
            return;
        }
        for (int i = 0; i < fields.pointers(); i++) {
            if (fields.selects(i, path)) {
                int count = out.length() - start;
                if (values.length < length + count) {
                    values = Arrays.copyOf(values, Math.max(length + count, values.length * 2));
                }
                System.arraycopy(out.array(), start, values, length, count);
                starts[i] = length;
                length += count;
                ends[i] = length;
            }
        }
    }

    /** Writes the selection after the document in {@code out}; answers where it starts. */
    int writeSelected(JsonText out) {
        int from = out.length();
        out.put('{');
        boolean first = true;
        for (int i : fields.order()) {
            if (starts[i] >= 0) {
                if (!first) {
                    out.put(',');
                }
                first = false;
                out.bytes(fields.name(i));
                out.put(':');
                out.bytes(values, starts[i], ends[i] - starts[i]);
            }
        }
        out.put('}');
        return from;
    }
}

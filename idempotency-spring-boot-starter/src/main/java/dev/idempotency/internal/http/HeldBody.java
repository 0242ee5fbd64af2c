package dev.idempotency.internal.http;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Response body bytes held for replay, in chunks: unlike a growing array, holding a large body never copies what is
 * held already, and {@link StoredResponse#encode(int, List, HeldBody)} copies it once, straight into the stored record.
 * Chunks start small (most answers are a few hundred bytes) and double up to {@value #MAX_CHUNK} bytes. Not
 * thread-safe: one response writes it.
 */
public final class HeldBody {

    private static final int FIRST_CHUNK = 256;
    private static final int MAX_CHUNK = 64 * 1024;

    private final List<byte[]> chunks = new ArrayList<>();
    private int size;
    /** How much of the last chunk is used. */
    private int used;

    /** An empty body to write into. */
    public HeldBody() {}

    /** A body of {@code bytes}, held as they are (not copied). */
    public static HeldBody of(byte[] bytes) {
        HeldBody body = new HeldBody();
        if (bytes.length > 0) {
            body.chunks.add(bytes);
            body.size = bytes.length;
            body.used = bytes.length;
        }
        return body;
    }

    public int size() {
        return size;
    }

    public void write(byte[] bytes, int offset, int length) {
        int from = offset;
        int left = length;
        while (left > 0) {
            byte[] last = chunks.isEmpty() ? null : chunks.get(chunks.size() - 1);
            if (last == null || used == last.length) {
                last = new byte[nextChunkSize(left)];
                chunks.add(last);
                used = 0;
            }
            int n = Math.min(left, last.length - used);
            System.arraycopy(bytes, from, last, used, n);
            used += n;
            from += n;
            left -= n;
        }
        size += length;
    }

    /** Writes the held bytes to {@code out}, chunk by chunk. */
    public void writeTo(OutputStream out) throws IOException {
        for (int i = 0; i < chunks.size(); i++) {
            out.write(chunks.get(i), 0, i == chunks.size() - 1 ? used : chunks.get(i).length);
        }
    }

    /** Copies the held bytes into {@code target} from {@code offset}. */
    public void copyTo(byte[] target, int offset) {
        int at = offset;
        for (int i = 0; i < chunks.size(); i++) {
            int length = i == chunks.size() - 1 ? used : chunks.get(i).length;
            System.arraycopy(chunks.get(i), 0, target, at, length);
            at += length;
        }
    }

    /** The held bytes in one array (a copy). */
    public byte[] toByteArray() {
        byte[] bytes = new byte[size];
        copyTo(bytes, 0);
        return bytes;
    }

    /** Forgets what is held. */
    public void clear() {
        chunks.clear();
        size = 0;
        used = 0;
    }

    /** Twice the size held so far, at least what must fit now, within [{@value #FIRST_CHUNK}, {@value #MAX_CHUNK}]. */
    private int nextChunkSize(int needed) {
        int doubled = Math.max(FIRST_CHUNK, size);
        return Math.min(MAX_CHUNK, Math.max(doubled, Math.min(needed, MAX_CHUNK)));
    }
}

package dev.idempotency.web;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An HTTP response as stored for replay: status, the headers a replay must repeat, and the body bytes. Encoded compactly
 * (a version byte, the status, headers with one-byte ids for the usual names, then the raw body) so a record costs little more than its body.
 *
 * @param status HTTP status code
 * @param headers header names and values, in the order they are written back
 * @param body the body bytes, exactly as stored
 */
record StoredResponse(int status, Map<String, String> headers, byte[] body) {

    private static final int VERSION = 1;

    /** Header names a replay repeats are stored as their index in this list: one byte instead of the name. */
    private static final List<String> KNOWN_NAMES = ResponseCapture.REPLAYED_HEADERS;

    private static final int OTHER_NAME = 0xFF;

    byte[] encode() {
        List<byte[]> values = new ArrayList<>(headers.size());
        int size = 4 + body.length;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            byte[] value = header.getValue().getBytes(StandardCharsets.UTF_8);
            values.add(value);
            int known = KNOWN_NAMES.indexOf(header.getKey());
            size += 3 + value.length + (known >= 0 ? 0 : 2 + utf8(header.getKey()).length);
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) VERSION).putShort((short) status).put((byte) headers.size());
        int index = 0;
        for (String name : headers.keySet()) {
            int known = KNOWN_NAMES.indexOf(name);
            out.put((byte) (known >= 0 ? known : OTHER_NAME));
            if (known < 0) {
                putShortBytes(out, utf8(name));
            }
            putShortBytes(out, values.get(index++));
        }
        return out.put(body).array();
    }

    static StoredResponse decode(byte[] stored) {
        ByteBuffer in = ByteBuffer.wrap(stored);
        int version = Byte.toUnsignedInt(in.get());
        if (version != VERSION) {
            throw new IllegalStateException("Stored response has unknown format version " + version);
        }
        int status = Short.toUnsignedInt(in.getShort());
        int count = Byte.toUnsignedInt(in.get());
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            int known = Byte.toUnsignedInt(in.get());
            String name = known == OTHER_NAME ? getShortString(in) : KNOWN_NAMES.get(known);
            headers.put(name, getShortString(in));
        }
        return new StoredResponse(status, headers, Arrays.copyOfRange(stored, in.position(), stored.length));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void putShortBytes(ByteBuffer out, byte[] bytes) {
        out.putShort((short) bytes.length).put(bytes);
    }

    private static String getShortString(ByteBuffer in) {
        int length = Short.toUnsignedInt(in.getShort());
        String text = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StoredResponse that
                && status == that.status
                && headers.equals(that.headers)
                && Arrays.equals(body, that.body);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * status + headers.hashCode()) + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "StoredResponse[status=" + status + ", headers=" + headers + ", body=" + body.length + " bytes]";
    }
}

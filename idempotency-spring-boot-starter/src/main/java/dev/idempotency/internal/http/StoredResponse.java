package dev.idempotency.internal.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An HTTP response as stored for replay: the status, the headers a replay repeats, and the body bytes exactly as they
 * were sent. Encoded compactly (a version byte, the status, headers with one-byte ids for the usual names, then the raw
 * body) so that a record costs little more than its body. Spring MVC and WebFlux store and read the same format, so a
 * record written by one replays on the other.
 *
 * @param status HTTP status code
 * @param headers header names and values in the order they are written back; a name may repeat
 * @param body the body bytes
 */
public record StoredResponse(int status, List<Header> headers, byte[] body) {

    private static final int VERSION = 1;

    /** Header names stored as their index in this list: one byte instead of the name. Append only. */
    private static final List<String> KNOWN_NAMES = List.of("Content-Type", "Location", "ETag");

    private static final int OTHER_NAME = 0xFF;

    /** One header line. */
    public record Header(String name, String value) {}

    public StoredResponse {
        headers = List.copyOf(headers);
    }

    public byte[] encode() {
        return encode(status, headers, HeldBody.of(body));
    }

    /**
     * The record of a response as sent, built in one array of its exact size: the body is copied once, from where it
     * was held, and nowhere else.
     */
    public static byte[] encode(int status, List<Header> headers, HeldBody body) {
        List<byte[]> values = new ArrayList<>(headers.size());
        int size = 4;
        for (Header header : headers) {
            byte[] value = utf8(header.value());
            values.add(value);
            size += 3 + value.length + (knownId(header.name()) >= 0 ? 0 : 2 + utf8(header.name()).length);
        }
        int head = size;
        ByteBuffer out = ByteBuffer.allocate(head + body.size());
        out.put((byte) VERSION).putShort((short) status).put((byte) headers.size());
        for (int i = 0; i < headers.size(); i++) {
            int known = knownId(headers.get(i).name());
            out.put((byte) (known >= 0 ? known : OTHER_NAME));
            if (known < 0) {
                putShortBytes(out, utf8(headers.get(i).name()));
            }
            putShortBytes(out, values.get(i));
        }
        body.copyTo(out.array(), head);
        return out.array();
    }

    /**
     * @throws IllegalStateException when {@code stored} is not a stored response of a known format version
     */
    public static StoredResponse decode(byte[] stored) {
        try {
            ByteBuffer in = ByteBuffer.wrap(stored);
            int version = Byte.toUnsignedInt(in.get());
            if (version != VERSION) {
                throw new IllegalStateException("Stored response has unknown format version " + version);
            }
            int status = Short.toUnsignedInt(in.getShort());
            int count = Byte.toUnsignedInt(in.get());
            List<Header> headers = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int known = Byte.toUnsignedInt(in.get());
                String name = known == OTHER_NAME ? getShortString(in) : KNOWN_NAMES.get(known);
                headers.add(new Header(name, getShortString(in)));
            }
            return new StoredResponse(status, headers, Arrays.copyOfRange(stored, in.position(), stored.length));
        } catch (RuntimeException ex) {
            throw ex instanceof IllegalStateException state
                    ? state
                    : new IllegalStateException("Corrupt stored response", ex);
        }
    }

    private static int knownId(String name) {
        for (int i = 0; i < KNOWN_NAMES.size(); i++) {
            if (KNOWN_NAMES.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
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

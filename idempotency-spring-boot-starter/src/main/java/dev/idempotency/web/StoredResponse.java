package dev.idempotency.web;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An HTTP response as stored for replay: status, the headers a replay must repeat, and the body bytes. Encoded compactly
 * (a version byte, the status, length-prefixed headers, then the raw body) so a record costs little more than its body.
 *
 * @param status HTTP status code
 * @param headers header names and values, in the order they are written back
 * @param body the body bytes, exactly as stored
 */
record StoredResponse(int status, Map<String, String> headers, byte[] body) {

    private static final int VERSION = 1;

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + body.length);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeShort(status);
            out.writeByte(headers.size());
            for (Map.Entry<String, String> header : headers.entrySet()) {
                out.writeUTF(header.getKey());
                out.writeUTF(header.getValue());
            }
            out.write(body);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return bytes.toByteArray();
    }

    static StoredResponse decode(byte[] stored) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(stored))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new IllegalStateException("Stored response has unknown format version " + version);
            }
            int status = in.readUnsignedShort();
            int count = in.readUnsignedByte();
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                headers.put(in.readUTF(), in.readUTF());
            }
            return new StoredResponse(status, headers, in.readAllBytes());
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
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

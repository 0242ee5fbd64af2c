package dev.idempotency.internal.operation;

import dev.idempotency.requestid.ResultCodec;
import java.io.ByteArrayOutputStream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores a bean method's result (or its future's value) as JSON and hands duplicates a copy deserialized to the
 * declared type, with the application's {@link JsonMapper}. Built once per method at startup.
 */
public final class JsonResultCodec implements ResultCodec<@Nullable Object> {

    private static final Logger log = LoggerFactory.getLogger(JsonResultCodec.class);
    private static final byte[] NOTHING = new byte[0];

    private final JsonMapper jsonMapper;
    private final JavaType valueType;
    private final boolean returnsNothing;

    JsonResultCodec(JsonMapper jsonMapper, JavaType valueType) {
        this.jsonMapper = jsonMapper;
        this.valueType = valueType;
        Class<?> raw = valueType.getRawClass();
        this.returnsNothing = raw == void.class || raw == Void.class;
    }

    @Override
    public byte[] encode(@Nullable Object result) {
        return returnsNothing ? NOTHING : jsonMapper.writeValueAsBytes(result);
    }

    @Override
    public @Nullable Object decode(byte[] stored) {
        return returnsNothing || stored.length == 0 ? null : jsonMapper.readValue(stored, valueType);
    }

    /**
     * Encodes a list element by element, as the elements of a {@code Flux} arrive, into the bytes {@link #encode}
     * would give the whole list; past {@code limit} bytes it lets them go, so that a long stream holds no more than the
     * limit while it is collected.
     */
    public ListEncoding encodeList(long limit) {
        return new ListEncoding(limit);
    }

    /** A list being encoded; see {@link #encodeList}. Not thread-safe: a {@code Flux} signals one element at a time. */
    public final class ListEncoding {

        private final long limit;
        private @Nullable ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        private ListEncoding(long limit) {
            this.limit = limit;
            bytes.write('[');
        }

        /**
         * Adds the next element, unless the list has passed the limit already. An element that cannot be encoded lets
         * the list go as one past the limit does: the elements still reach the caller, and the key completes without
         * a result, as a {@code Mono}'s value that cannot be encoded does.
         */
        public void add(@Nullable Object element) {
            ByteArrayOutputStream encoded = bytes;
            if (encoded == null) {
                return;
            }
            byte[] next;
            try {
                next = jsonMapper.writeValueAsBytes(element);
            } catch (RuntimeException ex) {
                log.error(
                        "Could not encode an element for storage; the stream goes on, and duplicates are told its"
                                + " result was not kept",
                        ex);
                bytes = null;
                return;
            }
            if (encoded.size() > 1) {
                encoded.write(',');
            }
            encoded.writeBytes(next);
            if (encoded.size() + 1 > limit) {
                bytes = null; // over the limit: stored as "not kept", so nothing more is worth holding
            }
        }

        /** The encoded list, or {@code null} when it passed the limit. */
        public byte @Nullable [] finish() {
            ByteArrayOutputStream encoded = bytes;
            if (encoded == null) {
                return null;
            }
            encoded.write(']');
            return encoded.toByteArray();
        }
    }
}

package dev.idempotency.internal.operation;

import dev.idempotency.requestid.ResultCodec;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores a bean method's result (or its future's value) as JSON and hands duplicates a copy deserialized to the
 * declared type, with the application's {@link JsonMapper}. Built once per method at startup.
 */
final class JsonResultCodec implements ResultCodec<@Nullable Object> {

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
}

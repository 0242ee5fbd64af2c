package dev.idempotency.aop;

import dev.idempotency.requestid.ResultCodec;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores a bean method's result as JSON and hands duplicates a copy deserialized to the method's generic return type,
 * with the application's {@link JsonMapper}.
 */
final class JsonResultCodec implements ResultCodec<@Nullable Object> {

    private static final byte[] NOTHING = new byte[0];

    private final JsonMapper jsonMapper;
    private final JavaType returnType;
    private final boolean returnsNothing;

    JsonResultCodec(JsonMapper jsonMapper, Method method) {
        this.jsonMapper = jsonMapper;
        this.returnType = jsonMapper.constructType(method.getGenericReturnType());
        this.returnsNothing = method.getReturnType() == void.class;
    }

    @Override
    public byte[] encode(@Nullable Object result) {
        return returnsNothing ? NOTHING : jsonMapper.writeValueAsBytes(result);
    }

    @Override
    public @Nullable Object decode(byte[] stored) {
        return returnsNothing || stored.length == 0 ? null : jsonMapper.readValue(stored, returnType);
    }
}

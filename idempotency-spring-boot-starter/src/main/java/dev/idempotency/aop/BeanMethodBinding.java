package dev.idempotency.aop;

import dev.idempotency.key.KeyDigests;
import dev.idempotency.requestid.ResultCodec;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A call outside HTTP (a service, a message listener): the operation is the bean method, the payload is its
 * arguments as JSON, and results travel as JSON.
 */
public final class BeanMethodBinding implements CallBinding {

    private final IdempotentOperation operation;
    private final MethodInvocation invocation;
    private final JsonMapper jsonMapper;

    public BeanMethodBinding(IdempotentOperation operation, MethodInvocation invocation, JsonMapper jsonMapper) {
        this.operation = operation;
        this.invocation = invocation;
        this.jsonMapper = jsonMapper;
    }

    /** The plain factory: every call is a bean method call. */
    public static CallBindingFactory factory(JsonMapper jsonMapper) {
        return (operation, invocation) -> new BeanMethodBinding(operation, invocation, jsonMapper);
    }

    @Override
    public @Nullable String header(String name) {
        return null;
    }

    @Override
    public String operation() {
        return operation.name();
    }

    @Override
    public String fingerprint() {
        try {
            return KeyDigests.shortDigest(jsonMapper.writeValueAsBytes(invocation.getArguments()));
        } catch (JacksonException ex) {
            throw new IllegalStateException(
                    "Cannot fingerprint the arguments of " + operation.name()
                            + " as JSON; set fingerprint: false in its policy: " + ex.getOriginalMessage(),
                    ex);
        }
    }

    @Override
    public ResultCodec<@Nullable Object> resultCodec() {
        return new JsonResultCodec(jsonMapper, operation.method());
    }
}

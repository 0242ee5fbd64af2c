package dev.idempotency.internal.operation;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.NullNode;

/**
 * The payload fingerprint of a bean method call: each argument as JSON, with the application's mapper, so that equal
 * arguments give equal fingerprints whatever their identity. The rule for what is left out: parameters whose type is
 * a stream, a servlet request or response, a principal, a message-listener handle or a coroutine's continuation
 * (decided at startup), and any argument Jackson cannot write (warned once per parameter). Left-out arguments still
 * count as present.
 */
public final class ArgumentFingerprint {

    private static final Logger log = LoggerFactory.getLogger(ArgumentFingerprint.class);

    /** Types that carry no payload worth comparing, by name so that none of them has to be on the classpath. */
    private static final List<String> LEFT_OUT = List.of(
            "java.io.InputStream",
            "java.io.OutputStream",
            "java.io.Reader",
            "java.io.Writer",
            "java.security.Principal",
            "jakarta.servlet.ServletRequest",
            "jakarta.servlet.ServletResponse",
            "org.springframework.kafka.support.Acknowledgment",
            "org.apache.kafka.clients.consumer.Consumer",
            "kotlin.coroutines.Continuation");

    private final String operation;
    private final PayloadFields fields;
    private final JsonMapper jsonMapper;
    private final boolean[] leftOut;
    private final Set<Integer> warned = ConcurrentHashMap.newKeySet();

    private ArgumentFingerprint(String operation, PayloadFields fields, JsonMapper jsonMapper, boolean[] leftOut) {
        this.operation = operation;
        this.fields = fields;
        this.jsonMapper = jsonMapper;
        this.leftOut = leftOut;
    }

    static ArgumentFingerprint of(Method method, String operation, PayloadFields fields, JsonMapper jsonMapper) {
        Class<?>[] types = method.getParameterTypes();
        boolean[] leftOut = new boolean[types.length];
        for (int i = 0; i < types.length; i++) {
            leftOut[i] = isLeftOut(types[i], method.getDeclaringClass().getClassLoader());
        }
        return new ArgumentFingerprint(operation, fields, jsonMapper, leftOut);
    }

    private static boolean isLeftOut(Class<?> type, @Nullable ClassLoader loader) {
        for (String name : LEFT_OUT) {
            if (ClassUtils.isPresent(name, loader)
                    && ClassUtils.resolveClassName(name, loader).isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The 22-character fingerprint of {@code arguments}: each argument's JSON, or with {@code fingerprint-fields} the
     * selected members of the arguments as one array, in canonical form.
     */
    public String digest(@Nullable Object[] arguments) {
        Fingerprint fingerprint = new Fingerprint();
        if (!fields.selectsAll()) {
            ArrayNode all = JsonNodeFactory.instance.arrayNode();
            for (int i = 0; i < arguments.length; i++) {
                Object argument = arguments[i];
                all.add(written(i, () -> jsonMapper.valueToTree(argument), NullNode.getInstance()));
            }
            return fingerprint.add('s', CanonicalJson.write(fields.select(all))).digest();
        }
        for (int i = 0; i < arguments.length; i++) {
            Object argument = arguments[i];
            byte[] json = written(i, () -> jsonMapper.writeValueAsBytes(argument), null);
            if (json == null) {
                fingerprint.add('-', new byte[0]);
            } else {
                fingerprint.add('a', json);
            }
        }
        return fingerprint.digest();
    }

    /** Argument {@code i} as {@code writer} writes it, or {@code leftOut} for one left out or that cannot be written. */
    private <T> @Nullable T written(int i, Supplier<T> writer, @Nullable T leftOut) {
        if (i < this.leftOut.length && this.leftOut[i]) {
            return leftOut;
        }
        try {
            return writer.get();
        } catch (JacksonException ex) {
            if (warned.add(i)) {
                log.warn(
                        "Argument {} of {} cannot be written as JSON; it is left out of the payload fingerprint: {}",
                        i,
                        operation,
                        ex.getOriginalMessage());
            }
            return leftOut;
        }
    }
}

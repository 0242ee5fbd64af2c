package dev.idempotency.internal.operation;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The payload fingerprint of a bean method call: each argument as JSON, with the application's mapper, so that equal
 * arguments give equal fingerprints whatever their identity. The rule for what is left out: parameters whose type is
 * a stream, a servlet request or response, a principal or a message-listener handle (decided at startup), and any
 * argument Jackson cannot write (warned once per parameter). Left-out arguments still count as present.
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
            "org.apache.kafka.clients.consumer.Consumer");

    private final String operation;
    private final JsonMapper jsonMapper;
    private final boolean[] leftOut;
    private final Set<Integer> warned = ConcurrentHashMap.newKeySet();

    private ArgumentFingerprint(String operation, JsonMapper jsonMapper, boolean[] leftOut) {
        this.operation = operation;
        this.jsonMapper = jsonMapper;
        this.leftOut = leftOut;
    }

    static ArgumentFingerprint of(Method method, String operation, JsonMapper jsonMapper) {
        Class<?>[] types = method.getParameterTypes();
        boolean[] leftOut = new boolean[types.length];
        for (int i = 0; i < types.length; i++) {
            leftOut[i] = isLeftOut(types[i], method.getDeclaringClass().getClassLoader());
        }
        return new ArgumentFingerprint(operation, jsonMapper, leftOut);
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

    /** The 22-character fingerprint of {@code arguments}. */
    public String digest(@Nullable Object[] arguments) {
        Fingerprint fingerprint = new Fingerprint();
        for (int i = 0; i < arguments.length; i++) {
            if (i < leftOut.length && leftOut[i]) {
                fingerprint.add('-', new byte[0]);
                continue;
            }
            try {
                fingerprint.add('a', jsonMapper.writeValueAsBytes(arguments[i]));
            } catch (JacksonException ex) {
                if (warned.add(i)) {
                    log.warn(
                            "Argument {} of {} cannot be written as JSON; it is left out of the payload fingerprint: {}",
                            i,
                            operation,
                            ex.getOriginalMessage());
                }
                fingerprint.add('-', new byte[0]);
            }
        }
        return fingerprint.digest();
    }
}

package dev.idempotency.autoconfigure;

import dev.idempotency.key.RedisKeys;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;

/**
 * The namespace of this application's records: {@code idempotency.namespace}, else {@code spring.application.name}
 * (with characters a key should not hold replaced by {@code -}), else none. Two applications sharing a Redis and the
 * default prefix, with an endpoint of the same route, would otherwise share records: one would replay the other's
 * answers. Startup says which namespace is in use, and warns when there is none.
 */
final class Namespace {

    private static final Logger log = LoggerFactory.getLogger(Namespace.class);
    private static final Pattern INVALID_CHARACTER = Pattern.compile("[^A-Za-z0-9._-]");

    private Namespace() {}

    static boolean isValid(String namespace) {
        return RedisKeys.isValidNamespace(namespace);
    }

    static String resolve(IdempotencyProperties properties, Environment environment) {
        String configured = properties.getNamespace();
        if (configured != null) {
            log.info(
                    configured.isEmpty()
                            ? "Idempotency records without a namespace (idempotency.namespace is empty)"
                            : "Idempotency records in namespace '{}' (idempotency.namespace)",
                    configured);
            return configured;
        }
        String application =
                environment.getProperty("spring.application.name", "").trim();
        if (application.isEmpty()) {
            log.warn("No spring.application.name: this application's idempotency records share their keys with every"
                    + " other application on the same Redis and key prefix; set spring.application.name (or"
                    + " idempotency.namespace)");
            return "";
        }
        String namespace = INVALID_CHARACTER.matcher(application).replaceAll("-");
        log.info("Idempotency records in namespace '{}' (spring.application.name)", namespace);
        return namespace;
    }
}

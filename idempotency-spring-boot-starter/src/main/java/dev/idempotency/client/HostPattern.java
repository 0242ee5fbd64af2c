package dev.idempotency.client;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The hosts of {@code idempotency.client.hosts}: a name matches itself, {@code *.example.com} matches every subdomain
 * of {@code example.com} (not {@code example.com} itself), case-insensitively.
 */
final class HostPattern {

    private static final Pattern VALID = Pattern.compile("(\\*\\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?");

    private final Set<String> names;

    HostPattern(Set<String> names) {
        this.names = Set.copyOf(names);
    }

    static boolean isValid(String host) {
        return VALID.matcher(host).matches();
    }

    boolean matches(@Nullable String host) {
        if (host == null || names.isEmpty()) {
            return false;
        }
        String name = host.toLowerCase(Locale.ROOT);
        if (names.contains(name)) {
            return true;
        }
        for (int dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
            if (names.contains("*" + name.substring(dot))) {
                return true;
            }
        }
        return false;
    }
}

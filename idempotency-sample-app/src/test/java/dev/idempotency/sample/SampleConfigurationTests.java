package dev.idempotency.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.autoconfigure.IdempotencyProperties;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample's application.yml tells the truth about the starter's settings: every {@code idempotency.*} key it names
 * exists in the starter's configuration metadata; it shows every setting there is (those unset by default as a
 * comment), as its header says; and every value it sets is the default, except the policy it names.
 */
class SampleConfigurationTests {

    private static final Path YAML = Path.of("src/main/resources/application.yml");
    private static final Pattern KEY_LINE = Pattern.compile("^( *)(# *)?([a-z][a-z0-9-]*):(.*)$");
    private static final String POLICIES = "idempotency.policies.";

    /** A key of the YAML: its value as written (comment stripped), or a comment that names it without a value. */
    private record Entry(String value, boolean commented) {}

    @Test
    void everyKeyExistsEverySettingIsShownAndEveryValueIsTheDefault() throws IOException {
        Map<String, Entry> yaml = idempotencyKeys(Files.readAllLines(YAML));
        Map<String, JsonNode> metadata = metadata();
        assertThat(metadata).as("the starter's idempotency.* properties").hasSizeGreaterThan(40);

        Set<String> policyFields = policyFields();
        for (String key : yaml.keySet()) {
            if (key.startsWith(POLICIES)) {
                String field = key.substring(key.indexOf('.', POLICIES.length()) + 1);
                assertThat(policyFields).as("%s is a policy field", key).contains(field);
            } else {
                assertThat(metadata).as("%s in the configuration metadata", key).containsKey(key);
            }
        }
        Set<String> shown = new TreeSet<>(yaml.keySet());
        Set<String> missing = new TreeSet<>(metadata.keySet());
        missing.remove("idempotency.policies");
        missing.removeAll(shown);
        assertThat(missing).as("settings application.yml does not show").isEmpty();

        for (Map.Entry<String, Entry> entry : yaml.entrySet()) {
            String key = entry.getKey();
            if (key.startsWith(POLICIES)) {
                continue; // the one deliberate change: the payments policy
            }
            JsonNode defaultValue = metadata.get(key).get("defaultValue");
            if (entry.getValue().commented()) {
                assertThat(defaultValue)
                        .as("%s is shown as unset, so it has no default value", key)
                        .isNull();
                continue;
            }
            if (defaultValue == null) {
                assertThat(entry.getValue().value())
                        .as("%s has no default value but an empty list", key)
                        .isEqualTo("[]");
                continue;
            }
            assertThat(sameValue(entry.getValue().value(), defaultValue))
                    .as("%s: %s is the default %s", key, entry.getValue().value(), defaultValue)
                    .isTrue();
        }
    }

    /** The keys under {@code idempotency:}, by their full names, from the YAML's indentation. */
    private static Map<String, Entry> idempotencyKeys(List<String> lines) {
        Map<String, Entry> keys = new LinkedHashMap<>();
        Deque<Map.Entry<Integer, String>> path = new ArrayDeque<>();
        for (String line : lines) {
            Matcher key = KEY_LINE.matcher(line);
            if (!key.matches()) {
                continue;
            }
            int indent = key.group(1).length();
            while (!path.isEmpty() && path.peekLast().getKey() >= indent) {
                path.removeLast();
            }
            String name = path.stream().map(Map.Entry::getValue).collect(Collectors.joining("."));
            name = name.isEmpty() ? key.group(3) : name + "." + key.group(3);
            boolean commented = key.group(2) != null;
            String value = withoutComment(key.group(4)).strip();
            if (!commented && value.isEmpty()) {
                path.addLast(Map.entry(indent, key.group(3))); // a block
            } else if (name.startsWith("idempotency.")) {
                keys.put(name, new Entry(value, commented));
            }
        }
        return keys;
    }

    private static String withoutComment(String value) {
        int comment = value.indexOf(" #");
        return comment < 0 ? value : value.substring(0, comment);
    }

    /** Every {@code idempotency.*} property of the metadata on the class path (the starter's, merged). */
    private static Map<String, JsonNode> metadata() throws IOException {
        Map<String, JsonNode> properties = new TreeMap<>();
        Enumeration<URL> files = SampleConfigurationTests.class
                .getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json");
        while (files.hasMoreElements()) {
            try (InputStream in = files.nextElement().openStream()) {
                for (JsonNode property : JsonMapper.shared().readTree(in).path("properties")) {
                    String name = property.path("name").asString();
                    if (name.startsWith("idempotency.")) {
                        properties.put(name, property);
                    }
                }
            }
        }
        return properties;
    }

    /** What a policy may set: the properties of {@link IdempotencyProperties.Policy}, kebab-case. */
    private static Set<String> policyFields() {
        return Arrays.stream(IdempotencyProperties.Policy.class.getMethods())
                .map(method -> method.getName())
                .filter(name -> name.startsWith("set"))
                .map(name ->
                        name.substring(3).replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Whether a value as written in YAML equals a metadata default: durations and sizes by value, lists by items. */
    private static boolean sameValue(String written, JsonNode defaultValue) {
        String value = written.replaceAll("^\"|\"$", "");
        if (defaultValue.isArray()) {
            List<String> items = Arrays.stream(value.replaceAll("^\\[|]$", "").split(","))
                    .map(String::strip)
                    .filter(item -> !item.isEmpty())
                    .toList();
            List<String> defaults = new java.util.ArrayList<>();
            defaultValue.forEach(item -> defaults.add(item.asString()));
            return items.equals(defaults);
        }
        String expected = defaultValue.asString();
        if (value.equalsIgnoreCase(expected)) {
            return true;
        }
        try {
            return DurationStyle.detectAndParse(value).equals(DurationStyle.detectAndParse(expected));
        } catch (IllegalArgumentException notADuration) {
            // try a data size
        }
        try {
            return DataSize.parse(value).equals(DataSize.parse(expected));
        } catch (IllegalArgumentException notASize) {
            return false;
        }
    }
}

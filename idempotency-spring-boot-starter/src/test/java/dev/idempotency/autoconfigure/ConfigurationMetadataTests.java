package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.BeanUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration metadata an IDE shows for {@code idempotency.*}, read from the {@code
 * META-INF/spring-configuration-metadata.json} that the configuration processor generated for this module.
 */
class ConfigurationMetadataTests {

    private static final JsonNode METADATA = starterMetadata();

    @Test
    void everyPropertyOfIdempotencyPropertiesIsListed() {
        List<String> expected = new ArrayList<>();
        collectPropertyNames(IdempotencyProperties.class, "idempotency", expected);

        assertThat(expected).contains("idempotency.enabled", "idempotency.request-id.ttl", "idempotency.policies");
        assertThat(propertyNames()).containsAll(expected);
    }

    @Test
    void everyIdempotencyPropertyHasADescription() {
        List<String> undescribed = properties()
                .filter(property -> property.path("description").asString("").isBlank())
                .map(property -> property.path("name").asString())
                .toList();

        assertThat(propertyNames()).hasSizeGreaterThan(20);
        assertThat(undescribed).as("idempotency.* properties without Javadoc").isEmpty();
    }

    @Test
    void descriptionsArePlainText() {
        // The processor copies Javadoc as it is: an IDE would show "{@code ...}" literally.
        List<String> withJavadocTags = properties()
                .filter(property -> property.path("description").asString("").contains("{@"))
                .map(property -> property.path("name").asString())
                .toList();

        assertThat(withJavadocTags).isEmpty();
    }

    static Stream<Arguments> enumProperties() {
        return Stream.of(
                Arguments.of("idempotency.on-store-failure", IdempotencyProperties.StoreFailureMode.class),
                Arguments.of("idempotency.scope", IdempotencyProperties.KeyScope.class),
                Arguments.of("idempotency.anonymous", IdempotencyProperties.AnonymousMode.class));
    }

    @ParameterizedTest
    @MethodSource("enumProperties")
    void enumPropertiesHaveAHintForEveryConstant(String property, Class<? extends Enum<?>> type) {
        List<String> constants = Arrays.stream(type.getEnumConstants())
                .map(constant -> constant.name().toLowerCase(Locale.ROOT))
                .toList();

        JsonNode hint = hint(property);
        assertThat(hint.path("values").values())
                .extracting(value -> value.path("value").asString())
                .containsExactlyInAnyOrderElementsOf(constants);
        assertThat(hint.path("values").values())
                .allSatisfy(value ->
                        assertThat(value.path("description").asString("")).isNotBlank());
    }

    @Test
    void policyNamesHaveAHintThatAcceptsAnyName() {
        JsonNode hint = hint("idempotency.policies.keys");

        assertThat(hint.path("providers").values())
                .extracting(provider -> provider.path("name").asString())
                .containsExactly("any");
        assertThat(hint.path("values").values())
                .allSatisfy(value ->
                        assertThat(value.path("description").asString("")).isNotBlank());
    }

    private static JsonNode hint(String name) {
        return METADATA.path("hints").values().stream()
                .filter(hint -> hint.path("name").asString().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no hint for " + name));
    }

    private static Stream<JsonNode> properties() {
        return METADATA.path("properties").values().stream()
                .filter(property -> property.path("name").asString().startsWith("idempotency."));
    }

    private static List<String> propertyNames() {
        return properties().map(property -> property.path("name").asString()).toList();
    }

    /** Walks the bean properties as Boot binds them: nested groups are this class's own non-enum member types. */
    private static void collectPropertyNames(Class<?> type, String prefix, List<String> names) {
        for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
            if (descriptor.getReadMethod() == null || descriptor.getName().equals("class")) {
                continue;
            }
            Class<?> propertyType = descriptor.getPropertyType();
            String name = prefix + "." + kebabCase(descriptor.getName());
            if (isNestedGroup(propertyType)) {
                collectPropertyNames(propertyType, name, names);
            } else if (descriptor.getWriteMethod() != null
                    || Map.class.isAssignableFrom(propertyType)
                    || Collection.class.isAssignableFrom(propertyType)) {
                names.add(name);
            }
        }
    }

    private static boolean isNestedGroup(Class<?> type) {
        return !type.isEnum() && type.getName().startsWith(IdempotencyProperties.class.getName() + "$");
    }

    private static String kebabCase(String camelCase) {
        return camelCase.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** The metadata file of this module: the only one on the class path that describes a dev.idempotency type. */
    static JsonNode starterMetadata() {
        JsonMapper mapper = JsonMapper.builder().build();
        List<JsonNode> candidates = new ArrayList<>();
        try {
            for (URL url : Collections.list(ConfigurationMetadataTests.class
                    .getClassLoader()
                    .getResources("META-INF/spring-configuration-metadata.json"))) {
                try (InputStream in = url.openStream()) {
                    JsonNode metadata = mapper.readTree(in);
                    boolean ours = metadata.path("groups").values().stream()
                            .anyMatch(group ->
                                    group.path("sourceType").asString("").startsWith("dev.idempotency."));
                    if (ours) {
                        candidates.add(metadata);
                    }
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        assertThat(candidates).as("generated metadata of the starter").hasSize(1);
        return candidates.get(0);
    }
}

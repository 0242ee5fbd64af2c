package dev.idempotency.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The configuration appendix of the guide ({@code docs/guide/configuration.md}), generated from the configuration
 * metadata: each block between {@code <!-- generated: name -->} and {@code <!-- end generated -->} is a table of the
 * properties of one group, in name order, with the default and the description the metadata gives. The rest of the
 * page is written by hand.
 */
final class ConfigurationAppendix {

    private static final Pattern BLOCK =
            Pattern.compile("(?s)(<!-- generated: ([a-z]+) -->\n)(.*?)(<!-- end generated -->)");

    /** The groups: which properties each table lists, and the rows written by hand after them. */
    private static final Map<String, Group> GROUPS = Map.of(
            "server",
            new Group(
                    name -> !name.startsWith("idempotency.client.")
                            && !name.startsWith("idempotency.kafka.")
                            && !name.equals("idempotency.policies"),
                    List.of(
                            "| `idempotency.policies.<name>.*` | | a named block of `ttl`, `lease`, `wait`, `header`,"
                                    + " `fingerprint`, `fingerprint-fields`, `on-store-failure`, `release-on`, `missing-key` for"
                                    + " `@Idempotent(policy = \"<name>\")` |",
                            "| `idempotency.client.*` | | the retrying client, [below](#the-retrying-client-idempotencyclient) |",
                            "| `idempotency.kafka.*` | | the Kafka binding, [below](#kafka-idempotencykafka) |")),
            "client",
            new Group(name -> name.startsWith("idempotency.client."), List.of()),
            "kafka",
            new Group(name -> name.startsWith("idempotency.kafka."), List.of()));

    private ConfigurationAppendix() {}

    /** {@code page} with every generated block written anew from {@code metadata}. */
    static String regenerate(String page, JsonNode metadata) {
        Map<String, JsonNode> properties = new TreeMap<>();
        metadata.path("properties").values().forEach(property -> {
            String name = property.path("name").asString();
            if (name.startsWith("idempotency.")) {
                properties.put(name, property);
            }
        });
        Matcher blocks = BLOCK.matcher(page);
        StringBuilder regenerated = new StringBuilder();
        while (blocks.find()) {
            Group group = GROUPS.get(blocks.group(2));
            if (group == null) {
                throw new IllegalStateException("Unknown generated block '" + blocks.group(2) + "'");
            }
            blocks.appendReplacement(
                    regenerated,
                    Matcher.quoteReplacement(blocks.group(1) + table(properties, group) + blocks.group(4)));
        }
        blocks.appendTail(regenerated);
        return regenerated.toString();
    }

    private static String table(Map<String, JsonNode> properties, Group group) {
        List<String> rows = new ArrayList<>(List.of("| property | default | meaning |", "|---|---|---|"));
        properties.forEach((name, property) -> {
            if (group.lists().test(name)) {
                rows.add("| `" + name + "` | " + shownDefault(property) + " | "
                        + property.path("description").asString("").replace("|", "\\|") + " |");
            }
        });
        rows.addAll(group.byHand());
        return String.join("\n", rows) + "\n";
    }

    private static String shownDefault(JsonNode property) {
        JsonNode known = property.path("defaultValue");
        if (known.isMissingNode() || known.isNull()) {
            return "(none)";
        }
        if (known.isArray()) {
            List<String> values = new ArrayList<>();
            known.values().forEach(value -> values.add(value.asString()));
            return "`" + String.join(", ", values) + "`";
        }
        return "`" + known.asString() + "`";
    }

    /**
     * One generated table.
     *
     * @param lists which properties it lists
     * @param byHand rows written by hand after them
     */
    private record Group(Predicate<String> lists, List<String> byHand) {}
}

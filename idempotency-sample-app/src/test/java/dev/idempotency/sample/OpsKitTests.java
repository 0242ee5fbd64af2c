package dev.idempotency.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.TestHttp;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operations kit ({@code ops/}) reads what the library exports: every metric name and label that the Grafana
 * dashboard and the Prometheus alert rules use exists in the sample's {@code /actuator/prometheus} once it has served a
 * few calls.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=prometheus",
            "management.metrics.tags.application=idempotency-sample",
            "idempotency.client.enabled=true"
        })
class OpsKitTests {

    private static final Path OPS = Path.of("..", "ops");
    private static final Pattern METRIC = Pattern.compile("\\bidempotency_[a-z_]+");
    private static final Pattern SELECTOR = Pattern.compile("\\{([^}]*)}");
    private static final Pattern MATCHER_LABEL = Pattern.compile("([a-z_]+)\\s*(?:=~|!~|!=|=)");
    private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without|on|ignoring)\\s*\\(([^)]*)\\)");
    /** Labels Prometheus adds when it scrapes, which no application exports. */
    private static final Set<String> SCRAPE_LABELS = Set.of("job", "instance");

    @LocalServerPort
    int port;

    @Test
    void everyMetricAndLabelTheDashboardAndTheAlertsUseIsExported() throws IOException {
        TestHttp http = new TestHttp(port);
        String key = UUID.randomUUID().toString();
        http.post("/api/orders", "{\"item\":\"Espresso beans\",\"quantity\":2}", "Idempotency-Key", key);
        http.post("/api/orders", "{\"item\":\"Espresso beans\",\"quantity\":2}", "Idempotency-Key", key);
        HttpResponse<String> scrape = http.get("/actuator/prometheus");
        assertThat(scrape.statusCode()).isEqualTo(200);
        String exported = scrape.body();

        List<String> expressions = expressions();
        assertThat(expressions).as("the kit's PromQL expressions").hasSizeGreaterThan(10);
        Set<String> metrics = new TreeSet<>();
        Set<String> labels = new TreeSet<>();
        for (String expression : expressions) {
            collect(METRIC.matcher(expression), metrics, 0);
            Matcher selectors = SELECTOR.matcher(expression);
            while (selectors.find()) {
                collect(MATCHER_LABEL.matcher(selectors.group(1)), labels, 1);
            }
            Matcher groupings = GROUPING.matcher(expression);
            while (groupings.find()) {
                for (String label : groupings.group(1).split(",")) {
                    if (!label.isBlank()) {
                        labels.add(label.trim());
                    }
                }
            }
        }
        assertThat(metrics).as("metrics the kit uses").isNotEmpty();
        for (String metric : metrics) {
            assertThat(exported).as("%s in /actuator/prometheus", metric).containsPattern("(?m)^" + metric + "[{ ]");
        }
        labels.removeAll(SCRAPE_LABELS);
        for (String label : labels) {
            assertThat(exported)
                    .as("label %s on an idempotency metric", label)
                    .containsPattern("(?m)^idempotency_[a-z_]+\\{[^}]*\\b" + label + "=\"");
        }
    }

    /** Every {@code expr} of the dashboard (JSON) and of the alert rules (YAML, one line each). */
    private static List<String> expressions() throws IOException {
        List<String> found = new java.util.ArrayList<>();
        JsonNode dashboard = JsonMapper.shared()
                .readTree(OPS.resolve("grafana/idempotency-dashboard.json").toFile());
        dashboard.findValues("expr").forEach(expr -> found.add(expr.asString()));
        for (String line : Files.readAllLines(OPS.resolve("prometheus/idempotency-alerts.yml"))) {
            String trimmed = line.trim();
            if (trimmed.startsWith("expr:")) {
                found.add(trimmed.substring("expr:".length()).trim());
            }
        }
        return found;
    }

    private static void collect(Matcher matcher, Set<String> into, int group) {
        while (matcher.find()) {
            into.add(matcher.group(group));
        }
    }
}

package dev.idempotency.it;

import static dev.idempotency.it.HttpContractTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.TestHttp;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code missing-key: proceed} (policy {@code rollout}) on both web stacks and on a bean: a call without a key runs
 * unprotected and is counted as {@code no_key}; with a key it is protected as ever; the default still refuses it.
 */
@ParameterizedClass
@EnumSource(Stack.class)
class RolloutTests {

    private static final String ORDER = "{\"item\":\"book\",\"quantity\":1}";

    @Parameter
    Stack stack;

    ShopController shop;
    TestHttp http;

    @BeforeEach
    void setUp() {
        shop = stack.bean(ShopController.class);
        http = new TestHttp(stack.port());
    }

    @Test
    void aRequestWithoutAKeyRunsUnprotectedEachTimeAndIsCounted() {
        int runs = shop.runs("rollout");
        double noKey = outcomes("ShopController#rollout", "no_key");
        HttpResponse<String> first = http.post("/rollout", ORDER);
        HttpResponse<String> second = http.post("/rollout", ORDER);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(second.body()).contains("\"item\":\"book\"");
        assertThat(shop.runs("rollout")).as("no key, no protection").isEqualTo(runs + 2);
        assertThat(outcomes("ShopController#rollout", "no_key")).isEqualTo(noKey + 2);
    }

    @Test
    void aRequestWithAKeyIsStillProtected() {
        int runs = shop.runs("rollout");
        String key = UUID.randomUUID().toString();
        HttpResponse<String> first = http.post("/rollout", ORDER, "Idempotency-Key", key);
        HttpResponse<String> retry = http.post("/rollout", ORDER, "Idempotency-Key", key);
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(shop.runs("rollout")).isEqualTo(runs + 1);
        assertProblem(http.post("/rollout", ORDER, "Idempotency-Key", ""), 400);
        assertThat(shop.runs("rollout"))
                .as("a malformed key is refused, not run")
                .isEqualTo(runs + 1);
    }

    @Test
    void byDefaultARequestWithoutAKeyIsRefusedAndNotRun() {
        int runs = shop.runs("orders");
        double missing = outcomes("ShopController#create", "missing_key");
        assertProblem(http.post("/orders", ORDER), 400);
        assertThat(shop.runs("orders")).isEqualTo(runs);
        assertThat(outcomes("ShopController#create", "missing_key")).isEqualTo(missing + 1);
    }

    @Test
    void aBeanCallWhoseKeyIsNullRunsUnprotectedWithTheRolloutPolicy() {
        ReportService reports = stack.bean(ReportService.class);
        double noKey = outcomes("ReportService#archive", "no_key");
        int first = reports.archive(null).run();
        int second = reports.archive(null).run();
        assertThat(second).as("ran again: nothing to protect it by").isEqualTo(first + 1);
        assertThat(outcomes("ReportService#archive", "no_key")).isEqualTo(noKey + 2);
        String key = UUID.randomUUID().toString();
        assertThat(reports.archive(key)).isEqualTo(reports.archive(key));
    }

    private double outcomes(String operation, String outcome) {
        Counter counter = stack.bean(MeterRegistry.class)
                .find("idempotency.requests")
                .tags("operation", operation, "outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }
}

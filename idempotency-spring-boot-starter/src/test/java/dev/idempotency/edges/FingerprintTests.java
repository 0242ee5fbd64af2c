package dev.idempotency.edges;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The fingerprint is the request as received: two bodies that bind alike (they differ in an {@code @JsonIgnore}d or
 * an unknown member) or that differ in a bound {@code @RequestHeader} are different payloads, answered 422, while the
 * same JSON written with other whitespace or member order is the same payload. A policy's {@code fingerprint-fields}
 * picks the members that count. Both stacks, executions counted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FingerprintTests {

    private static final String PAYMENT = "{\"amount\":12.50,\"currency\":\"EUR\",\"note\":\"for May\"}";

    private ConfigurableApplicationContext mvc;
    private ConfigurableApplicationContext webflux;

    @BeforeAll
    void start() {
        mvc = EdgeApplication.start(Stack.MVC);
        webflux = EdgeApplication.start(Stack.WEBFLUX);
    }

    @AfterAll
    void stop() {
        mvc.close();
        webflux.close();
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void bodiesThatDifferOnlyInAnIgnoredOrUnknownMemberAre422(Stack stack) {
        Call call = new Call(stack, "/edge/payments/");
        assertThat(call.send(PAYMENT, "X-Account", "acc-1").statusCode()).isEqualTo(200);
        HttpResponse<String> ignored = call.send(PAYMENT.replace("for May", "for June"), "X-Account", "acc-1");
        assertThat(ignored.statusCode()).as("an @JsonIgnore'd member changed").isEqualTo(422);
        assertThat(ignored.body()).contains("urn:idempotency:problem:payload-mismatch");
        assertThat(call.send(PAYMENT.replace("}", ",\"coupon\":\"X1\"}"), "X-Account", "acc-1")
                        .statusCode())
                .as("an unknown member added")
                .isEqualTo(422);
        assertThat(call.executions()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void aDifferentRequestHeaderIs422(Stack stack) {
        Call call = new Call(stack, "/edge/payments/");
        assertThat(call.send(PAYMENT, "X-Account", "acc-1").statusCode()).isEqualTo(200);
        assertThat(call.send(PAYMENT, "X-Account", "acc-2").statusCode()).isEqualTo(422);
        assertThat(call.executions()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void theSameJsonWrittenOtherwiseIsReplayed(Stack stack) {
        Call call = new Call(stack, "/edge/payments/");
        HttpResponse<String> first = call.send(PAYMENT, "X-Account", "acc-1");
        HttpResponse<String> reordered = call.send(
                "{ \"note\" : \"for May\",\n  \"currency\":\"EUR\", \"amount\": 12.50 }", "X-Account", "acc-1");
        assertThat(reordered.statusCode()).isEqualTo(200);
        assertThat(reordered.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(reordered.body()).isEqualTo(first.body());
        assertThat(call.send(PAYMENT.replace("12.50", "12.5"), "X-Account", "acc-1")
                        .statusCode())
                .as("a number written otherwise is another payload")
                .isEqualTo(422);
        assertThat(call.executions()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void fingerprintFieldsPickTheMembersThatCount(Stack stack) {
        Call call = new Call(stack, "/edge/transfers/");
        String transfer = "{\"amount\":5,\"currency\":\"EUR\",\"memo\":\"rent\"}";
        HttpResponse<String> first = call.send(transfer);
        assertThat(first.statusCode()).isEqualTo(200);
        HttpResponse<String> otherMemo = call.send(transfer.replace("rent", "rent, again"));
        assertThat(otherMemo.statusCode()).as("the memo does not count").isEqualTo(200);
        assertThat(otherMemo.body()).isEqualTo(first.body());
        assertThat(call.send(transfer.replace("5", "6")).statusCode()).isEqualTo(422);
        assertThat(call.send("{\"amount\":5,\"memo\":\"rent\"}").statusCode())
                .as("an absent member differs from a present one")
                .isEqualTo(422);
        assertThat(call.executions()).isEqualTo(1);
    }

    /** Calls of one route with one key, on one stack. */
    private final class Call {

        private final TestHttp http;
        private final String path;
        private final String id = UUID.randomUUID().toString();
        private final ConfigurableApplicationContext app;

        Call(Stack stack, String route) {
            this.app = stack == Stack.MVC ? mvc : webflux;
            this.http = new TestHttp(EdgeApplication.port(app));
            this.path = route + id;
        }

        HttpResponse<String> send(String body, String... headers) {
            String[] all = new String[headers.length + 2];
            all[0] = "Idempotency-Key";
            all[1] = id;
            System.arraycopy(headers, 0, all, 2, headers.length);
            return http.post(path, body, all);
        }

        int executions() {
            return app.getBean(Work.class).executions(id);
        }
    }
}

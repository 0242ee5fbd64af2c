package dev.idempotency.it;

import static dev.idempotency.it.HttpContractTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A fleet running both stacks on one Redis (mid-migration from Spring MVC to WebFlux): a retry that reaches the other
 * stack finds the same record, built from the same scripts, key layout, payload fingerprint and stored format.
 */
class MixedFleetTests {

    private static final String ORDER = "{\"item\":\"map\",\"quantity\":3}";

    private static Stack other(Stack stack) {
        return stack == Stack.MVC ? Stack.WEBFLUX : Stack.MVC;
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void aRecordWrittenByOneStackIsReplayedByTheOther(Stack first) {
        String key = UUID.randomUUID().toString();
        ShopController elsewhere = other(first).bean(ShopController.class);
        int runsElsewhere = elsewhere.runs("carts");
        HttpResponse<String> original =
                new TestHttp(first.port()).post("/carts/fleet/items", ORDER, "Idempotency-Key", key);
        HttpResponse<String> retry =
                new TestHttp(other(first).port()).post("/carts/fleet/items", ORDER, "Idempotency-Key", key);
        assertThat(original.statusCode()).isEqualTo(201);
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.body()).isEqualTo(original.body());
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(retry.headers().firstValue("Content-Type"))
                .isEqualTo(original.headers().firstValue("Content-Type"));
        assertThat(elsewhere.runs("carts")).as("the other stack did not run it").isEqualTo(runsElsewhere);
        assertProblem(
                new TestHttp(other(first).port())
                        .post("/carts/fleet/items", "{\"item\":\"map\",\"quantity\":4}", "Idempotency-Key", key),
                422);
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void aDuplicateOnTheOtherStackWhileTheFirstRunsGets409(Stack first) throws Exception {
        String key = UUID.randomUUID().toString();
        ShopController shop = first.bean(ShopController.class);
        shop.hold();
        CompletableFuture<HttpResponse<String>> original = CompletableFuture.supplyAsync(
                () -> new TestHttp(first.port()).post("/orders", ORDER, "Idempotency-Key", key));
        try {
            assertThat(shop.awaitEntered()).isTrue();
            assertProblem(new TestHttp(other(first).port()).post("/orders", ORDER, "Idempotency-Key", key), 409);
        } finally {
            shop.release();
        }
        HttpResponse<String> sent = original.get(20, TimeUnit.SECONDS);
        HttpResponse<String> replay = new TestHttp(other(first).port()).post("/orders", ORDER, "Idempotency-Key", key);
        assertThat(replay.body()).isEqualTo(sent.body());
        for (String header : List.of("Location", "ETag")) {
            assertThat(replay.headers().firstValue(header))
                    .isEqualTo(sent.headers().firstValue(header));
        }
    }

    @Test
    void aTokenIssuedByOneStackIsConsumedOnceAcrossBoth() {
        String token = new TestHttp(Stack.MVC.port()).token("POST /feedback");
        assertThat(new TestHttp(Stack.WEBFLUX.port())
                        .post("/feedback", "{}", "Idempotency-Token", token)
                        .statusCode())
                .isEqualTo(201);
        assertProblem(new TestHttp(Stack.MVC.port()).post("/feedback", "{}", "Idempotency-Token", token), 409);
    }
}

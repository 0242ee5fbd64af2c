package dev.idempotency.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockHound;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The proof that reactive calls never block a non-blocking thread: BlockHound, with the Reactor and Netty
 * integrations (event loops of WebFlux and of Lettuce alike), records every blocking call on such a thread while
 * WebFlux traffic of every strategy and outcome runs, and reactive bean methods too. Runs in a JVM of its own.
 */
@Tag("blockhound")
class NoBlockingTests {

    private static final List<String> BLOCKING_CALLS = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void installBlockHound() {
        BlockHound.builder()
                .loadIntegrations()
                .blockingMethodCallback(method -> BLOCKING_CALLS.add(method + " on "
                        + Thread.currentThread().getName() + "\n  "
                        + Arrays.stream(new Throwable().getStackTrace())
                                .limit(30)
                                .map(String::valueOf)
                                .collect(Collectors.joining("\n  "))))
                .install();
    }

    @AfterAll
    static void report() {
        BLOCKING_CALLS.forEach(call -> System.err.println("[blocking] " + call));
    }

    @Test
    void blockHoundSeesABlockingCallOnANonBlockingThread() {
        int before = BLOCKING_CALLS.size();
        Mono.fromRunnable(() -> {
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                })
                .subscribeOn(Schedulers.parallel())
                .block(Duration.ofSeconds(10));
        assertThat(BLOCKING_CALLS).as("the detector itself works").hasSizeGreaterThan(before);
        BLOCKING_CALLS.clear();
    }

    @Test
    void webFluxTrafficOfEveryStrategyNeverBlocks() throws Exception {
        blockHoundSeesABlockingCallOnANonBlockingThread();
        TestHttp http = new TestHttp(Stack.WEBFLUX.port());
        ReactiveOrdersController orders = Stack.WEBFLUX.bean(ReactiveOrdersController.class);
        ReactiveLedger ledger = Stack.WEBFLUX.bean(ReactiveLedger.class);
        orders.release();
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String key = UUID.randomUUID().toString();
            String order = "{\"item\":\"tea\",\"quantity\":" + (i + 1) + "}";
            statuses.add(
                    http.post("/reactive/orders", order, "Idempotency-Key", key).statusCode());
            statuses.add(
                    http.post("/reactive/orders", order, "Idempotency-Key", key).statusCode());
            statuses.add(http.post("/reactive/orders", "{\"item\":\"pen\",\"quantity\":99}", "Idempotency-Key", key)
                    .statusCode());
            statuses.add(http.post("/reactive/batches", order, "Idempotency-Key", key)
                    .statusCode());
            statuses.add(
                    http.post("/reactive/pings", "", "Idempotency-Key", key).statusCode());
            String token = http.token("POST /reactive/notes");
            statuses.add(
                    http.post("/reactive/notes", "", "Idempotency-Token", token).statusCode());
            statuses.add(
                    http.post("/reactive/notes", "", "Idempotency-Token", token).statusCode());
            statuses.add(http.post("/reactive/stock/" + key, "").statusCode());
            ledger.record(key).block(Duration.ofSeconds(10));
            ledger.record(key).block(Duration.ofSeconds(10));
        }
        String key = UUID.randomUUID().toString();
        orders.hold();
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> http.post("/reactive/slow", "", "Idempotency-Key", key));
        assertThat(orders.awaitEntered()).isTrue();
        statuses.add(http.post("/reactive/slow", "", "Idempotency-Key", key).statusCode());
        orders.release();
        statuses.add(first.get().statusCode());

        assertThat(statuses).containsOnly(200, 201, 202, 409, 422).contains(422);
        assertThat(BLOCKING_CALLS).as("blocking calls on non-blocking threads").isEmpty();
    }
}
